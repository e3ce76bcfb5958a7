#include "ui/settings/FilterPanel.h"

#include "ui/settings/EnumCombo.h"

#include "engine/data/DataError.h"
#include "engine/data/Noise.h"
#include "engine/data/Spectrum.h"
#include "engine/data/UniformTime.h"
#include "ui/plots/CurvePlot.h"
#include "ui/plots/SpectrumPlot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace sysid::ui {

namespace {

constexpr double kTimeLimit = 1e12;

QDoubleSpinBox* makeDoubleSpin(QWidget* parent, double lo, double hi, int decimals, const QString& name)
{
    auto* spin = new QDoubleSpinBox(parent);
    spin->setObjectName(name);
    spin->setRange(lo, hi);
    spin->setDecimals(decimals);
    spin->setKeyboardTracking(false);
    return spin;
}

}  // namespace

FilterPanel::FilterPanel(QWidget* parent) : QWidget(parent)
{
    buildUi();
    setPreprocessing(data::Preprocessing{});
}

void FilterPanel::buildUi()
{
    column_ = new QComboBox(this);
    column_->setObjectName(QStringLiteral("columnCombo"));

    lowPassBox_ = new QGroupBox(tr("Low-pass (zero-phase Butterworth)"), this);
    lowPassBox_->setObjectName(QStringLiteral("lowPassBox"));
    lowPassBox_->setCheckable(true);
    order_ = new QSpinBox(lowPassBox_);
    order_->setObjectName(QStringLiteral("lowPassOrderSpin"));
    order_->setRange(1, 10);
    order_->setKeyboardTracking(false);
    cutoff_ = makeDoubleSpin(lowPassBox_, 0.0, 1e9, 6, QStringLiteral("cutoffSpin"));
    cutoff_->setSuffix(QStringLiteral(" Hz"));
    auto* lowPassForm = new QFormLayout(lowPassBox_);
    lowPassForm->addRow(tr("Order"), order_);
    lowPassForm->addRow(tr("Cutoff"), cutoff_);

    windowBox_ = new QGroupBox(tr("Time window"), this);
    windowBox_->setObjectName(QStringLiteral("windowBox"));
    windowBox_->setCheckable(true);
    windowStart_ = makeDoubleSpin(windowBox_, -kTimeLimit, kTimeLimit, 6, QStringLiteral("windowStartSpin"));
    windowEnd_ = makeDoubleSpin(windowBox_, -kTimeLimit, kTimeLimit, 6, QStringLiteral("windowEndSpin"));
    auto* windowForm = new QFormLayout(windowBox_);
    windowForm->addRow(tr("Start"), windowStart_);
    windowForm->addRow(tr("End"), windowEnd_);

    decimation_ = new QSpinBox(this);
    decimation_->setObjectName(QStringLiteral("decimationSpin"));
    decimation_->setRange(1, 100000);
    decimation_->setKeyboardTracking(false);

    noiseBox_ = new QGroupBox(tr("Added noise"), this);
    noiseBox_->setObjectName(QStringLiteral("noiseBox"));
    noiseBox_->setCheckable(true);
    noisePercent_ = makeDoubleSpin(noiseBox_, 0.0, 1e6, 3, QStringLiteral("noisePercentSpin"));
    noisePercent_->setSuffix(QStringLiteral(" % RMS"));
    noiseDistribution_ = new QComboBox(noiseBox_);
    noiseDistribution_->setObjectName(QStringLiteral("noiseDistributionCombo"));
    fillCombo(noiseDistribution_, data::kNoiseDistributions);
    noiseSeed_ = new QLineEdit(noiseBox_);
    noiseSeed_->setObjectName(QStringLiteral("noiseSeedEdit"));
    noiseSeed_->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,20}")), noiseSeed_));
    auto* noiseForm = new QFormLayout(noiseBox_);
    noiseForm->addRow(tr("Amount"), noisePercent_);
    noiseForm->addRow(tr("Distribution"), noiseDistribution_);
    noiseForm->addRow(tr("Seed"), noiseSeed_);

    auto* derivativeBox = new QGroupBox(tr("Differentiation"), this);
    derivativeMethod_ = new QComboBox(derivativeBox);
    derivativeMethod_->setObjectName(QStringLiteral("derivativeMethodCombo"));
    fillCombo(derivativeMethod_, data::kDerivativeMethods);
    derivativeMethod_->setToolTip(tr("How velocities are obtained from measured displacements for the equation-error "
                                     "methods (and the phase portrait). The smoothing spline sets its smoothing from "
                                     "the noise level it estimates in the data."));
    derivativeWindow_ = new QSpinBox(derivativeBox);
    derivativeWindow_->setObjectName(QStringLiteral("derivativeWindowSpin"));
    derivativeWindow_->setRange(3, 1001);
    derivativeWindow_->setSingleStep(2);
    derivativeWindow_->setSuffix(tr(" samples"));
    derivativeOrder_ = new QSpinBox(derivativeBox);
    derivativeOrder_->setObjectName(QStringLiteral("derivativeOrderSpin"));
    derivativeOrder_->setRange(1, 20);
    auto* derivativeForm = new QFormLayout(derivativeBox);
    derivativeForm->addRow(tr("Method"), derivativeMethod_);
    derivativeForm->addRow(tr("Window"), derivativeWindow_);
    derivativeForm->addRow(tr("Polynomial order"), derivativeOrder_);

    errorLabel_ = new QLabel(this);
    errorLabel_->setObjectName(QStringLiteral("errorLabel"));
    errorLabel_->setWordWrap(true);
    errorLabel_->setStyleSheet(QStringLiteral("color: #c00000;"));
    errorLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    errorLabel_->hide();

    signalPlot_ = new CurvePlot(this);
    signalPlot_->setObjectName(QStringLiteral("signalPlot"));
    signalPlot_->setMinimumHeight(160);
    signalPlot_->setAxisLabels(tr("time"), tr("value"));
    spectrumPlot_ = new SpectrumPlot(this);
    spectrumPlot_->setObjectName(QStringLiteral("spectrumPlot"));
    spectrumPlot_->setMinimumHeight(160);
    spectrumPlot_->setAxisLabels(tr("frequency [Hz]"), tr("power spectral density"));

    auto* settingsLayout = new QVBoxLayout;
    auto* columnForm = new QFormLayout;
    columnForm->addRow(tr("Preview column"), column_);
    columnForm->addRow(tr("Decimation"), decimation_);
    settingsLayout->addLayout(columnForm);
    settingsLayout->addWidget(windowBox_);
    settingsLayout->addWidget(lowPassBox_);
    settingsLayout->addWidget(noiseBox_);
    settingsLayout->addWidget(derivativeBox);
    settingsLayout->addStretch(1);

    auto* plots = new QSplitter(Qt::Vertical, this);
    plots->addWidget(signalPlot_);
    plots->addWidget(spectrumPlot_);

    auto* top = new QHBoxLayout;
    top->addLayout(settingsLayout);
    top->addWidget(plots, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top, 1);
    layout->addWidget(errorLabel_);

    const auto changed = [this] { settingChanged(); };
    connect(column_, &QComboBox::currentIndexChanged, this, [this] {
        if (!updating_) {
            plotSignals();
            plotSpectra();
        }
    });
    connect(lowPassBox_, &QGroupBox::toggled, this, changed);
    connect(order_, &QSpinBox::valueChanged, this, changed);
    connect(cutoff_, &QDoubleSpinBox::valueChanged, this, changed);
    connect(windowBox_, &QGroupBox::toggled, this, changed);
    connect(windowStart_, &QDoubleSpinBox::valueChanged, this, changed);
    connect(windowEnd_, &QDoubleSpinBox::valueChanged, this, changed);
    connect(decimation_, &QSpinBox::valueChanged, this, changed);
    connect(noiseBox_, &QGroupBox::toggled, this, changed);
    connect(noisePercent_, &QDoubleSpinBox::valueChanged, this, changed);
    connect(noiseDistribution_, &QComboBox::currentIndexChanged, this, changed);
    connect(noiseSeed_, &QLineEdit::editingFinished, this, changed);
    const auto derivative = [this] { differentiationChanged(); };
    connect(derivativeMethod_, &QComboBox::currentIndexChanged, this, derivative);
    connect(derivativeWindow_, &QSpinBox::valueChanged, this, derivative);
    connect(derivativeOrder_, &QSpinBox::valueChanged, this, derivative);
}

void FilterPanel::setTable(const data::DataTable* table)
{
    table_ = table;
    {
        const QSignalBlocker blocker(column_);
        const QString previous = column_->currentText();
        column_->clear();
        if (table_) {
            for (std::size_t c = 0; c < table_->columnNames.size(); ++c) {
                if (c != table_->timeColumn) {
                    column_->addItem(QString::fromStdString(table_->columnNames[c]));
                }
            }
            const int index = column_->findText(previous);
            column_->setCurrentIndex(index >= 0 ? index : 0);
            // Suggest the whole record as the window when none is set.
            if (!windowBox_->isChecked() && table_->timeColumn < table_->columns.size() &&
                !table_->columns[table_->timeColumn].empty()) {
                const std::vector<double>& t = table_->columns[table_->timeColumn];
                const QSignalBlocker b1(windowStart_);
                const QSignalBlocker b2(windowEnd_);
                windowStart_->setValue(t.front());
                windowEnd_->setValue(t.back());
            }
        }
    }
    refresh();
}

void FilterPanel::setPreprocessing(const data::Preprocessing& settings)
{
    updating_ = true;
    {
        const QSignalBlocker blocks[] = {
            QSignalBlocker(lowPassBox_),        QSignalBlocker(order_),       QSignalBlocker(cutoff_),
            QSignalBlocker(windowBox_),         QSignalBlocker(windowStart_), QSignalBlocker(windowEnd_),
            QSignalBlocker(decimation_),        QSignalBlocker(noiseBox_),    QSignalBlocker(noisePercent_),
            QSignalBlocker(noiseDistribution_), QSignalBlocker(noiseSeed_)};
        lowPassBox_->setChecked(settings.lowPass.has_value());
        const data::Preprocessing::LowPass lowPass = settings.lowPass.value_or(data::Preprocessing::LowPass{});
        order_->setValue(lowPass.order);
        cutoff_->setValue(lowPass.cutoffHz);
        windowBox_->setChecked(settings.window.has_value());
        if (settings.window) {
            windowStart_->setValue(settings.window->first);
            windowEnd_->setValue(settings.window->second);
        }
        decimation_->setValue(settings.decimation);
        noiseBox_->setChecked(settings.noise.has_value());
        const data::Preprocessing::AddedNoise noise = settings.noise.value_or(data::Preprocessing::AddedNoise{});
        noisePercent_->setValue(noise.percent);
        noiseDistribution_->setCurrentIndex(
            std::max(0, noiseDistribution_->findData(static_cast<int>(noise.distribution))));
        noiseSeed_->setText(QString::number(noise.seed));
        const QSignalBlocker derivativeBlocks[] = {QSignalBlocker(derivativeMethod_), QSignalBlocker(derivativeWindow_),
                                                   QSignalBlocker(derivativeOrder_)};
        derivativeMethod_->setCurrentIndex(
            std::max(0, derivativeMethod_->findData(static_cast<int>(settings.differentiation.method))));
        derivativeWindow_->setValue(settings.differentiation.window);
        derivativeOrder_->setValue(settings.differentiation.polynomialOrder);
    }
    differentiationChanged();  // enables the window and order boxes; no signal while updating
    updating_ = false;
    refresh();
    emit preprocessingChanged();
}

data::Preprocessing FilterPanel::preprocessing() const
{
    data::Preprocessing p;
    if (windowBox_->isChecked()) {
        p.window = std::make_pair(windowStart_->value(), windowEnd_->value());
    }
    p.decimation = decimation_->value();
    if (lowPassBox_->isChecked()) {
        p.lowPass = data::Preprocessing::LowPass{order_->value(), cutoff_->value()};
    }
    if (noiseBox_->isChecked()) {
        data::Preprocessing::AddedNoise noise;
        noise.percent = noisePercent_->value();
        noise.distribution = static_cast<data::NoiseDistribution>(noiseDistribution_->currentData().toInt());
        bool ok = false;
        const qulonglong seed = noiseSeed_->text().toULongLong(&ok);
        noise.seed = ok ? static_cast<std::uint64_t>(seed) : 0;
        p.noise = noise;
    }
    p.differentiation = {differentiation().first, differentiation().second, differentiationOrder()};
    return p;
}

std::pair<data::DerivativeMethod, int> FilterPanel::differentiation() const
{
    return {static_cast<data::DerivativeMethod>(derivativeMethod_->currentData().toInt()), derivativeWindow_->value()};
}

int FilterPanel::differentiationOrder() const
{
    return derivativeOrder_->value();
}

void FilterPanel::setDifferentiation(data::DerivativeMethod method, int window, int polynomialOrder)
{
    updating_ = true;
    derivativeMethod_->setCurrentIndex(std::max(0, derivativeMethod_->findData(static_cast<int>(method))));
    derivativeWindow_->setValue(window);
    derivativeOrder_->setValue(polynomialOrder);
    updating_ = false;
    differentiationChanged();
}

QString FilterPanel::currentColumn() const
{
    return column_->currentText();
}

void FilterPanel::setCurrentColumn(const QString& name)
{
    const int index = column_->findText(name);
    if (index >= 0) {
        column_->setCurrentIndex(index);
    }
}

void FilterPanel::settingChanged()
{
    if (updating_) {
        return;
    }
    refresh();
    emit preprocessingChanged();
}

void FilterPanel::differentiationChanged()
{
    const bool savitzkyGolay = differentiation().first == data::DerivativeMethod::SavitzkyGolay;
    derivativeWindow_->setEnabled(savitzkyGolay);
    derivativeOrder_->setEnabled(savitzkyGolay);
    QString problem;
    if (savitzkyGolay) {
        const int window = derivativeWindow_->value();
        if (window % 2 == 0) {
            problem = tr("The Savitzky–Golay window must be odd.");
        } else if (derivativeOrder_->value() >= window) {
            problem = tr("The Savitzky–Golay order must be less than the window.");
        }
    }
    derivativeWindow_->setToolTip(problem);
    derivativeWindow_->setStyleSheet(problem.isEmpty() ? QString() : QStringLiteral("border: 2px solid #d00000;"));
    if (!updating_) {
        emit preprocessingChanged();
    }
}

void FilterPanel::showError(const QString& message)
{
    error_ = message;
    errorLabel_->setText(message);
    errorLabel_->setVisible(!message.isEmpty());
}

void FilterPanel::refresh()
{
    processed_.reset();
    QString message;
    const data::Preprocessing settings = preprocessing();
    if (noiseBox_->isChecked()) {
        bool ok = false;
        noiseSeed_->text().toULongLong(&ok);
        if (!ok) {
            message = tr("added noise: the seed must be an integer from 0 to 18446744073709551615");
        }
    }
    if (message.isEmpty()) {
        try {
            settings.validate();
            if (table_) {
                processed_ = data::preprocess(*table_, settings);
            }
        } catch (const std::exception& e) {
            message = QString::fromUtf8(e.what());
        }
    }
    showError(message);
    if (settings.lowPass) {
        spectrumPlot_->setCutoff(settings.lowPass->cutoffHz);
    } else {
        spectrumPlot_->clearCutoff();
    }
    plotSignals();
    plotSpectra();
}

void FilterPanel::plotSignals()
{
    signalPlot_->clear();
    const std::string name = column_->currentText().toStdString();
    const auto plot = [&](const data::DataTable& table, const QString& curve) {
        const auto c = table.findColumn(name);
        if (c && table.timeColumn < table.columns.size()) {
            signalPlot_->setCurve(curve, table.columns[table.timeColumn], table.columns[*c]);
        }
    };
    if (table_ && !name.empty()) {
        plot(*table_, tr("raw"));
        if (processed_) {
            plot(*processed_, tr("processed"));
        }
    }
}

void FilterPanel::setIdentifiedResponse(const QString& column, std::vector<double> times, std::vector<double> values)
{
    identifiedColumn_ = column;
    identifiedTimes_ = std::move(times);
    identifiedValues_ = std::move(values);
    plotSpectra();
}

void FilterPanel::plotSpectra()
{
    QStringList notes;
    const std::string name = column_->currentText().toStdString();
    const auto spectrumOf = [&](const data::DataTable& table, const QString& curve, const QString& which) {
        const auto c = table.findColumn(name);
        if (!c || table.timeColumn >= table.columns.size()) {
            return;
        }
        try {
            const double dt = data::uniformTimeStep(table.columns[table.timeColumn], which.toStdString());
            const data::Spectrum s = data::welch(table.columns[*c], 1.0 / dt, 256);
            spectrumPlot_->setCurve(curve, s.frequency, s.power);
        } catch (const std::exception& e) {
            notes << QString::fromUtf8(e.what());
        }
    };
    spectrumPlot_->removeCurve(tr("raw"));
    spectrumPlot_->removeCurve(tr("processed"));
    spectrumPlot_->removeCurve(tr("identified"));
    if (table_ && !name.empty()) {
        spectrumOf(*table_, tr("raw"), tr("raw data"));
        if (processed_) {
            spectrumOf(*processed_, tr("processed"), tr("processed data"));
        }
        if (QString::fromStdString(name) == identifiedColumn_ && identifiedValues_.size() >= 2) {
            try {
                const double dt = data::uniformTimeStep(identifiedTimes_, "identified response");
                const data::Spectrum s = data::welch(identifiedValues_, 1.0 / dt, 256);
                spectrumPlot_->setCurve(tr("identified"), s.frequency, s.power);
            } catch (const std::exception& e) {
                notes << QString::fromUtf8(e.what());
            }
        }
    }
    spectrumPlot_->setToolTip(notes.isEmpty() ? QString()
                                              : tr("No spectrum: %1").arg(notes.join(QStringLiteral("; "))));
}

}  // namespace sysid::ui
