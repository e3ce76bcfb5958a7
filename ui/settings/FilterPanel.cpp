#include "ui/settings/FilterPanel.h"

#include "ui/settings/EnumCombo.h"
#include "ui/settings/NumberField.h"

#include "engine/core/SettingError.h"
#include "engine/data/CutoffSuggestion.h"
#include "engine/data/DataError.h"
#include "engine/data/Noise.h"
#include "engine/data/UniformTime.h"
#include "engine/data/ZeroPhaseFilter.h"
#include "ui/plots/CurvePlot.h"
#include "ui/plots/SpectrumPlot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFutureWatcher>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace sysid::ui {

namespace {

// A number field whose rule is what data::Preprocessing::validate() says of the setting `key` when
// `set` puts the value into otherwise valid settings.
QString cutoffHelp()
{
    return QObject::tr("Cutoff frequency of the low-pass: above the frequencies the model must reproduce, below the "
                       "Nyquist frequency (half the sample rate).");
}

// The start-value form (0: omega^2, 1: omega, 2: f) a parameter's name suggests: Omega2, wn2 or
// omega_sq for omega^2, f0 or fn for f, omega, wn or w0 for omega; -1 for other names.
int startFormFor(const QString& name)
{
    static const QRegularExpression natural(QStringLiteral("^(omega|wn|w0|w_n|fn|f0|f_n)"),
                                            QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression squared(QStringLiteral("(2|sq|squared)$"),
                                            QRegularExpression::CaseInsensitiveOption);
    if (!natural.match(name).hasMatch())
        return -1;
    if (squared.match(name).hasMatch())
        return 0;
    return name.startsWith(QLatin1Char('f'), Qt::CaseInsensitive) ? 2 : 1;
}

// A starting value as a person would type it: three significant digits.
double threeDigits(double v)
{
    return QString::number(v, 'g', 3).toDouble();
}

template <class Set>
NumberField* preprocessingField(QWidget* parent, const QString& name, const QString& label, const QString& help,
                                const std::string& key, Set set)
{
    auto* field = new NumberField(parent);
    field->setObjectName(name);
    field->setLabel(label);
    field->setHelp(help);
    field->setCheck([key, set](double value) {
        data::Preprocessing p;
        set(p, value);
        try {
            p.validate();
        } catch (const core::SettingError& e) {
            if (e.key() == key)
                return QString::fromStdString(e.rule());
        }
        return QString();
    });
    return field;
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
    order_->setToolTip(tr("Order of the Butterworth filter (1 to 10), run forward and backward (filtfilt), so "
                          "the response has twice this order and no phase shift."));
    lowPassBox_->setToolTip(tr("A zero-phase Butterworth low-pass (Butterworth 1930; forward and backward, "
                               "Gustafsson 1996) on every column before the fit."));
    cutoff_ = preprocessingField(lowPassBox_, QStringLiteral("cutoffField"), tr("low-pass cutoff"), cutoffHelp(),
                                 "low_pass.cutoff_hz", [](data::Preprocessing& p, double v) {
                                     p.lowPass = data::Preprocessing::LowPass{4, v};
                                 });
    ends_ = new QComboBox(lowPassBox_);
    ends_->setObjectName(QStringLiteral("filterEndsCombo"));
    fillCombo(ends_, data::kFilterEnds);
    explainChoice(ends_,
                  tr("How the filter treats the ends of the record, where the signal before and after it is "
                     "unknown."));
    skipTransients_ = new QPushButton(tr("Leave out the end transients"), lowPassBox_);
    skipTransients_->setObjectName(QStringLiteral("skipTransientsButton"));
    lowPassNote_ = new QLabel(lowPassBox_);
    lowPassNote_->setObjectName(QStringLiteral("lowPassNote"));
    lowPassNote_->setWordWrap(true);
    lowPassNote_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* lowPassForm = new QFormLayout(lowPassBox_);
    lowPassForm->addRow(tr("Order"), order_);
    lowPassForm->addRow(tr("Cutoff [Hz]"), cutoff_);
    lowPassForm->addRow(tr("Ends"), ends_);
    lowPassForm->addRow(lowPassNote_);
    lowPassForm->addRow(skipTransients_);

    auto* spectrumBox = new QGroupBox(tr("From the spectrum"), this);
    spectrumBox->setObjectName(QStringLiteral("spectrumBox"));
    spectrumBox->setToolTip(tr("The peak of the previewed column's power spectrum: for a lightly damped oscillator its "
                               "natural frequency, a starting value for the fit (Normann 1989)."));
    peakLabel_ = new QLabel(spectrumBox);
    peakLabel_->setObjectName(QStringLiteral("peakLabel"));
    peakLabel_->setWordWrap(true);
    peakLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    useCutoff_ = new QPushButton(spectrumBox);
    useCutoff_->setObjectName(QStringLiteral("useCutoffButton"));
    useCutoff_->setToolTip(tr("%1 times the highest spectral peak of the columns, so that the harmonics of a "
                              "nonlinear response pass, at most %2 % of the Nyquist frequency. Normann (1989) placed "
                              "the cutoff slightly above the natural frequency; compare the spectra and the filter's "
                              "gain below.")
                               .arg(data::kCutoffPerDominant)
                               .arg(100 * data::kCutoffOfNyquist));
    startParameter_ = new QComboBox(spectrumBox);
    startParameter_->setObjectName(QStringLiteral("startParameterCombo"));
    startParameter_->setToolTip(tr("The model parameter whose starting value is set."));
    startForm_ = new QComboBox(spectrumBox);
    startForm_->setObjectName(QStringLiteral("startFormCombo"));
    startForm_->setToolTip(tr("ω² = (2πf)² for a parameter that multiplies the displacement (stiffness over mass), "
                              "ω = 2πf for an angular frequency, f for a frequency in Hz."));
    setStart_ = new QPushButton(tr("Set start value"), spectrumBox);
    setStart_->setObjectName(QStringLiteral("setStartButton"));
    setStart_->setToolTip(tr("Writes the value into the parameter's line of the model (undo with Ctrl+Z in the "
                             "model editor)."));
    auto* spectrumForm = new QFormLayout(spectrumBox);
    spectrumForm->addRow(peakLabel_);
    spectrumForm->addRow(useCutoff_);
    spectrumForm->addRow(tr("Parameter"), startParameter_);
    spectrumForm->addRow(tr("Value"), startForm_);
    spectrumForm->addRow(setStart_);

    windowBox_ = new QGroupBox(tr("Time window"), this);
    windowBox_->setObjectName(QStringLiteral("windowBox"));
    windowBox_->setCheckable(true);
    windowBox_->setToolTip(tr("Only the samples with start ≤ t ≤ end are used. The model starts at the "
                              "window's first sample: its initial values are the state there."));
    const auto windowField = [this](const QString& name, const QString& label) {
        auto* field = new NumberField(windowBox_);
        field->setObjectName(name);
        field->setLabel(label);
        field->setRule(core::kAnyNumber);
        field->setHelp(tr("Only the samples with start ≤ t ≤ end are used (in the time column's unit)."));
        return field;
    };
    windowStart_ = windowField(QStringLiteral("windowStartField"), tr("window start"));
    windowEnd_ = windowField(QStringLiteral("windowEndField"), tr("window end"));
    windowAfterFilter_ = new QCheckBox(tr("Cut after filtering"), windowBox_);
    windowAfterFilter_->setObjectName(QStringLiteral("windowAfterFilterCheck"));
    windowAfterFilter_->setToolTip(tr("Filter (and decimate) the whole record, then keep the window: a window that "
                                      "starts later leaves the filter's start transient out of the fit. Unchecked, "
                                      "the window is cut first and only it is filtered."));
    auto* windowForm = new QFormLayout(windowBox_);
    windowForm->addRow(tr("Start"), windowStart_);
    windowForm->addRow(tr("End"), windowEnd_);
    windowForm->addRow(windowAfterFilter_);

    decimation_ = new QSpinBox(this);
    decimation_->setObjectName(QStringLiteral("decimationSpin"));
    decimation_->setRange(1, 100000);
    decimation_->setKeyboardTracking(false);
    decimation_->setToolTip(tr("Keep every n-th sample, after an anti-aliasing low-pass at the new Nyquist "
                               "frequency."));

    noiseBox_ = new QGroupBox(tr("Added noise"), this);
    noiseBox_->setObjectName(QStringLiteral("noiseBox"));
    noiseBox_->setCheckable(true);
    noiseBox_->setToolTip(tr("Noise added to every column before the fit, for simulation studies on clean data."));
    noisePercent_ = preprocessingField(noiseBox_, QStringLiteral("noisePercentField"), tr("noise level"),
                                       tr("Noise amplitude in percent of each column's RMS value."), "noise.percent",
                                       [](data::Preprocessing& p, double v) {
                                           p.noise = data::Preprocessing::AddedNoise{v, {}, 0};
                                       });
    noiseDistribution_ = new QComboBox(noiseBox_);
    noiseDistribution_->setObjectName(QStringLiteral("noiseDistributionCombo"));
    fillCombo(noiseDistribution_, data::kNoiseDistributions);
    noiseSeed_ = new QLineEdit(noiseBox_);
    noiseSeed_->setObjectName(QStringLiteral("noiseSeedEdit"));
    noiseSeed_->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,20}")), noiseSeed_));
    noiseSeed_->setToolTip(tr("The same seed gives the same noise."));
    explainChoice(noiseDistribution_, tr("The distribution the noise is drawn from."));
    auto* noiseForm = new QFormLayout(noiseBox_);
    noiseForm->addRow(tr("Amount [% RMS]"), noisePercent_);
    noiseForm->addRow(tr("Distribution"), noiseDistribution_);
    noiseForm->addRow(tr("Seed"), noiseSeed_);

    auto* derivativeBox = new QGroupBox(tr("Differentiation"), this);
    derivativeMethod_ = new QComboBox(derivativeBox);
    derivativeMethod_->setObjectName(QStringLiteral("derivativeMethodCombo"));
    fillCombo(derivativeMethod_, data::kDerivativeMethods);
    explainChoice(derivativeMethod_,
                  tr("How velocities are obtained from measured displacements for the equation-error methods (and "
                     "the phase portrait). The smoothing spline sets its smoothing from the noise level it estimates "
                     "in the data."));
    derivativeWindow_ = new QSpinBox(derivativeBox);
    derivativeWindow_->setObjectName(QStringLiteral("derivativeWindowSpin"));
    derivativeWindow_->setRange(3, 1001);
    derivativeWindow_->setSingleStep(2);
    derivativeWindow_->setSuffix(tr(" samples"));
    derivativeWindow_->setToolTip(tr("Savitzky–Golay (1964) window: an odd number of samples."));
    derivativeOrder_ = new QSpinBox(derivativeBox);
    derivativeOrder_->setObjectName(QStringLiteral("derivativeOrderSpin"));
    derivativeOrder_->setRange(1, 20);
    derivativeOrder_->setToolTip(tr("Savitzky–Golay (1964) polynomial order, less than the window."));
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
    signalPlot_->setMinimumHeight(kPlotMinimumHeight);
    signalPlot_->setAxisLabels(tr("time"), tr("value"));
    spectrumPlot_ = new SpectrumPlot(this);
    spectrumPlot_->setObjectName(QStringLiteral("spectrumPlot"));
    spectrumPlot_->setMinimumHeight(kPlotMinimumHeight);
    spectrumPlot_->setAxisLabels(tr("frequency [Hz]"), tr("power spectral density"));

    column_->setToolTip(tr("The column shown in the plots; the settings apply to every column."));
    auto* columnForm = new QFormLayout;
    columnForm->addRow(tr("Preview column"), column_);
    columnForm->addRow(tr("Decimation"), decimation_);
    // Settings, the engine's message, then the plots, each at least kPlotMinimumHeight tall: a
    // dock is narrow, so nothing sits beside the form.
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(columnForm);
    layout->addWidget(windowBox_);
    layout->addWidget(lowPassBox_);
    layout->addWidget(spectrumBox);
    layout->addWidget(noiseBox_);
    layout->addWidget(derivativeBox);
    layout->addWidget(errorLabel_);
    layout->addWidget(signalPlot_, 1);
    layout->addWidget(spectrumPlot_, 1);

    const auto changed = [this] { settingChanged(); };
    connect(column_, &QComboBox::currentIndexChanged, this, [this] {
        if (!updating_) {
            peak_.reset();
            peakWanted_ = true;
            plotSignals();
            plotSpectra();
            updateSuggestions();
        }
    });
    connect(lowPassBox_, &QGroupBox::toggled, this, [this](bool on) {
        if (on && !updating_ && !(cutoff_->isValid() && cutoff_->value() > 0))
            suggestCutoff();
        settingChanged();
    });
    connect(order_, &QSpinBox::valueChanged, this, changed);
    connect(cutoff_, &NumberField::valueChanged, this, changed);
    connect(ends_, &QComboBox::currentIndexChanged, this, changed);
    connect(windowBox_, &QGroupBox::toggled, this, changed);
    connect(windowAfterFilter_, &QCheckBox::toggled, this, changed);
    connect(skipTransients_, &QPushButton::clicked, this, [this] { skipTransients(); });
    connect(useCutoff_, &QPushButton::clicked, this, [this] {
        const std::optional<double> cutoff = suggestedCutoff_;
        if (!cutoff)
            return;
        {
            const QSignalBlocker b1(lowPassBox_);
            const QSignalBlocker b2(cutoff_);
            lowPassBox_->setChecked(true);
            cutoff_->setValue(*cutoff);
        }
        settingChanged();
    });
    connect(startParameter_, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        if (startFormFor(name) >= 0 && startForm_->count() > startFormFor(name))
            startForm_->setCurrentIndex(startFormFor(name));
    });
    connect(setStart_, &QPushButton::clicked, this, [this] {
        const auto peak = previewPeak();
        if (!peak || startParameter_->currentIndex() < 0)
            return;
        const int form = startForm_->currentData().toInt();
        const double value = threeDigits(form == 0       ? peak->angularFrequencySquared()
                                             : form == 1 ? peak->angularFrequency()
                                                         : peak->frequencyHz);
        const QString what = form == 0 ? tr("ω²") : form == 1 ? tr("ω") : tr("f");
        emit startValueRequested(startParameter_->currentText(), value,
                                 tr("%1 of the spectral peak of %2 at %3 Hz")
                                     .arg(what, column_->currentText())
                                     .arg(peak->frequencyHz, 0, 'g', 3));
    });
    connect(windowStart_, &NumberField::valueChanged, this, changed);
    connect(windowEnd_, &NumberField::valueChanged, this, changed);
    connect(decimation_, &QSpinBox::valueChanged, this, changed);
    connect(noiseBox_, &QGroupBox::toggled, this, changed);
    connect(noisePercent_, &NumberField::valueChanged, this, changed);
    // An entry's problem also shows in the panel's message line, not only in its tooltip.
    for (NumberField* field : {windowStart_, windowEnd_, cutoff_, noisePercent_})
        connect(field, &NumberField::validityChanged, this, [this] { refresh(); });
    connect(noiseDistribution_, &QComboBox::currentIndexChanged, this, changed);
    connect(noiseSeed_, &QLineEdit::editingFinished, this, changed);
    const auto derivative = [this] { differentiationChanged(); };
    connect(derivativeMethod_, &QComboBox::currentIndexChanged, this, derivative);
    connect(derivativeWindow_, &QSpinBox::valueChanged, this, derivative);
    connect(derivativeOrder_, &QSpinBox::valueChanged, this, derivative);
}

void FilterPanel::setTable(const data::DataTable* table)
{
    loadTable(table);
    refresh();
}

void FilterPanel::setPreprocessing(const data::Preprocessing& settings)
{
    loadPreprocessing(settings);
    refresh();
    emit preprocessingChanged();
}

void FilterPanel::setTableAndPreprocessing(const data::DataTable* table, const data::Preprocessing& settings)
{
    loadTable(table);
    loadPreprocessing(settings);
    refresh();
    emit preprocessingChanged();
}

void FilterPanel::loadTable(const data::DataTable* table)
{
    table_ = table;
    suggestedCutoff_ = table_ ? data::suggestedLowPassCutoff(*table_) : std::nullopt;
    raw_.reset();
    peak_.reset();
    peakWanted_ = true;
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
    if (!lowPassBox_->isChecked()) {
        const QSignalBlocker blocker(cutoff_);
        suggestCutoff();
    }
}

void FilterPanel::loadPreprocessing(const data::Preprocessing& settings)
{
    updating_ = true;
    {
        const QSignalBlocker blocks[] = {
            QSignalBlocker(lowPassBox_),        QSignalBlocker(order_),       QSignalBlocker(cutoff_),
            QSignalBlocker(windowBox_),         QSignalBlocker(windowStart_), QSignalBlocker(windowEnd_),
            QSignalBlocker(decimation_),        QSignalBlocker(noiseBox_),    QSignalBlocker(noisePercent_),
            QSignalBlocker(noiseDistribution_), QSignalBlocker(noiseSeed_),   QSignalBlocker(ends_),
            QSignalBlocker(windowAfterFilter_)};
        lowPassBox_->setChecked(settings.lowPass.has_value());
        ends_->setCurrentIndex(std::max(
            0, ends_->findData(static_cast<int>(settings.lowPass.value_or(data::Preprocessing::LowPass{}).ends))));
        windowAfterFilter_->setChecked(settings.windowAfterFilter);
        // Without a low-pass the field keeps the cutoff it offers (suggested from the data), so
        // that switching the filter on gives a valid one.
        order_->setValue(settings.lowPass.value_or(data::Preprocessing::LowPass{}).order);
        if (settings.lowPass) {
            cutoff_->setValue(settings.lowPass->cutoffHz);
        } else if (!(cutoff_->isValid() && cutoff_->value() > 0)) {
            suggestCutoff();
        }
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
}

data::Preprocessing FilterPanel::preprocessing() const
{
    data::Preprocessing p;
    if (windowBox_->isChecked()) {
        p.window = std::make_pair(windowStart_->value(), windowEnd_->value());
        p.windowAfterFilter = windowAfterFilter_->isChecked();
    }
    p.decimation = decimation_->value();
    if (lowPassBox_->isChecked()) {
        p.lowPass =
            data::Preprocessing::LowPass{order_->value(), cutoff_->value(), comboValue<data::FilterEnds>(ends_)};
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

QStringList FilterPanel::inputProblems() const
{
    QStringList problems;
    for (const NumberField* field : {windowStart_, windowEnd_, cutoff_, noisePercent_})
        if (field->isEnabled() && !field->isValid())  // an unchecked box disables its fields
            problems << field->problem();
    return problems;
}

void FilterPanel::suggestCutoff()
{
    const QString what = cutoffHelp();
    const std::optional<double> suggested = suggestedCutoff_;
    if (!suggested) {
        cutoff_->setHelp(what);
        return;
    }
    cutoff_->setValue(*suggested);
    cutoff_->setHelp(tr("%1\nOffered before one is set: %2 times the highest dominant frequency of the columns (the "
                        "peak of each spectrum), at most %3 % of the Nyquist frequency. Compare the raw and "
                        "processed spectra below to place it.")
                         .arg(what)
                         .arg(data::kCutoffPerDominant)
                         .arg(100 * data::kCutoffOfNyquist));
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
                processed_ = std::make_shared<const data::DataTable>(data::preprocess(*table_, settings));
            }
        } catch (const std::exception& e) {
            message = QString::fromUtf8(e.what());
        }
    }
    if (const QStringList problems = inputProblems(); !problems.isEmpty()) {
        const QString fields = tr("%1 (the last valid value is shown)").arg(problems.join(QStringLiteral("; ")));
        message = message.isEmpty() ? fields : fields + QStringLiteral("; ") + message;
    }
    showError(message);
    if (settings.lowPass) {
        spectrumPlot_->setCutoff(settings.lowPass->cutoffHz);
    } else {
        spectrumPlot_->clearCutoff();
    }
    showFilter(settings);
    plotSignals();
    plotSpectra();
    updateSuggestions();
}

double FilterPanel::sampleRate() const
{
    if (!table_ || table_->timeColumn >= table_->columns.size())
        return 0;
    try {
        return 1.0 / data::uniformTimeStep(table_->columns[table_->timeColumn], "time");
    } catch (const std::exception&) {
        return 0;
    }
}

void FilterPanel::showFilter(const data::Preprocessing& settings)
{
    const double rate = sampleRate();
    std::vector<double> frequency, gain;
    QString note;
    if (settings.lowPass && rate > 0) {
        note = tr("A %1.").arg(QString::fromStdString(data::describeLowPass(*settings.lowPass, rate)));
        try {
            const auto sections = data::butterworthLowPass(settings.lowPass->order, settings.lowPass->cutoffHz, rate);
            constexpr int points = 512;
            for (int i = 0; i <= points; ++i)
                frequency.push_back(0.5 * rate * i / points);
            gain = data::zeroPhaseGain(sections, frequency, rate);
        } catch (const std::exception&) {
            frequency.clear();  // the message line says why the filter cannot be designed
        }
    }
    spectrumPlot_->setFilterGain(frequency, gain);
    lowPassNote_->setText(note);
    lowPassNote_->setVisible(!note.isEmpty());
    const bool settles = settings.lowPass && rate > 0 && data::lowPassSettlingTime(*settings.lowPass, rate);
    skipTransients_->setEnabled(settles);
    skipTransients_->setToolTip(
        settles ? tr("Sets the time window to the record less the time the end transients take to decay to 1 % at "
                     "each end, cut after filtering.")
                : tr("Needs a low-pass that applies to the data."));
}

void FilterPanel::skipTransients()
{
    const double rate = sampleRate();
    const data::Preprocessing settings = preprocessing();
    if (!settings.lowPass || !(rate > 0))
        return;
    const auto settling = data::lowPassSettlingTime(*settings.lowPass, rate);
    const std::vector<double>& t = table_->columns[table_->timeColumn];
    if (!settling || !(t.front() + *settling < t.back() - *settling)) {
        showError(tr("The record is shorter than the low-pass's end transients (%1 s at each end).")
                      .arg(settling ? *settling : 0.0, 0, 'g', 3));
        return;
    }
    {
        const QSignalBlocker blocks[] = {QSignalBlocker(windowBox_), QSignalBlocker(windowStart_),
                                         QSignalBlocker(windowEnd_), QSignalBlocker(windowAfterFilter_)};
        windowBox_->setChecked(true);
        windowStart_->setValue(t.front() + *settling);
        windowEnd_->setValue(t.back() - *settling);
        windowAfterFilter_->setChecked(true);
    }
    settingChanged();
}

void FilterPanel::setParameterNames(const QStringList& names)
{
    const QString previous = startParameter_->currentText();
    {
        const QSignalBlocker blocker(startParameter_);
        startParameter_->clear();
        startParameter_->addItems(names);
        int index = startParameter_->findText(previous);
        for (int i = 0; index < 0 && i < names.size(); ++i)
            if (startFormFor(names[i]) >= 0)
                index = i;
        startParameter_->setCurrentIndex(index >= 0 ? index : 0);
    }
    if (startParameter_->currentText() != previous && startFormFor(startParameter_->currentText()) >= 0 &&
        startForm_->count() > 0)
        startForm_->setCurrentIndex(startFormFor(startParameter_->currentText()));
    // Not updateSuggestions(): a new project announces its model before its data, so the table
    // may already be gone; the start values offered are those of the last peak shown.
    updateStartControls();
}

void FilterPanel::updateSuggestions()
{
    const auto& peak = peak_;
    const std::optional<double> cutoff = suggestedCutoff_;
    if (peak) {
        const double w = peak->angularFrequency();
        peakLabel_->setText(tr("Peak of %1 at %2 Hz: ω = 2πf = %3 rad/s, ω² = %4 — for a lightly damped oscillator "
                               "its natural frequency, a starting value.")
                                .arg(column_->currentText())
                                .arg(peak->frequencyHz, 0, 'g', 3)
                                .arg(w, 0, 'g', 3)
                                .arg(w * w, 0, 'g', 3));
    } else if (table_ && peakWanted_) {
        peakLabel_->setText(tr("Finding the spectral peak of %1…").arg(column_->currentText()));
    } else {
        peakLabel_->setText(table_ ? tr("No spectral peak in %1 (constant, too short or not uniformly sampled).")
                                         .arg(column_->currentText())
                                   : tr("No data."));
    }
    useCutoff_->setEnabled(cutoff.has_value());
    useCutoff_->setText(cutoff ? tr("Use cutoff %1 Hz").arg(*cutoff) : tr("Use a suggested cutoff"));

    // The form shown stays; the first time, the one the parameter's name suggests.
    const int wanted = startForm_->count() > 0 ? startForm_->currentIndex()
                                               : std::max(0, startFormFor(startParameter_->currentText()));
    {
        const QSignalBlocker blocker(startForm_);
        startForm_->clear();
        if (peak) {
            startForm_->addItem(tr("ω² = %1").arg(threeDigits(peak->angularFrequencySquared())), 0);
            startForm_->addItem(tr("ω = %1 rad/s").arg(threeDigits(peak->angularFrequency())), 1);
            startForm_->addItem(tr("f = %1 Hz").arg(threeDigits(peak->frequencyHz)), 2);
            startForm_->setCurrentIndex(std::clamp(wanted, 0, 2));
        }
    }
    updateStartControls();
}

void FilterPanel::updateStartControls()
{
    const bool usable = startForm_->count() > 0 && startParameter_->count() > 0;
    startParameter_->setEnabled(startParameter_->count() > 0);
    startForm_->setEnabled(startForm_->count() > 0);
    setStart_->setEnabled(usable);
    setStart_->setToolTip(usable ? tr("Writes the value into the parameter's line of the model (undo with Ctrl+Z in "
                                      "the model editor).")
                                 : tr("Needs a spectral peak and a model with parameters."));
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
    auto identified = std::make_shared<data::DataTable>();
    identified->columnNames = {"time", column.toStdString()};
    identified->columns = {std::move(times), std::move(values)};
    identified_ = std::move(identified);
    plotSpectra();
}

void FilterPanel::plotSpectra()
{
    SpectrumPreviewRequest request;
    const std::string name = column_->currentText().toStdString();
    const auto add = [&](const std::shared_ptr<const data::DataTable>& table, const QString& curve,
                         const QString& what) {
        const auto c = table ? table->findColumn(name) : std::nullopt;
        if (c && table->timeColumn < table->columns.size())
            request.series.push_back({curve, what.toStdString(), table, *c});
    };
    if (table_ && !name.empty()) {
        if (!raw_ || raw_->columnNames.size() < 2 || raw_->columnNames[1] != name) {
            raw_.reset();
            if (const auto c = table_->findColumn(name); c && table_->timeColumn < table_->columns.size()) {
                auto raw = std::make_shared<data::DataTable>();
                raw->columnNames = {table_->columnNames.at(table_->timeColumn), name};
                raw->columns = {table_->columns[table_->timeColumn], table_->columns[*c]};
                raw_ = std::move(raw);
            }
        }
        add(raw_, tr("raw"), tr("raw data"));
        add(processed_, tr("processed"), tr("processed data"));
        if (QString::fromStdString(name) == identifiedColumn_ && identified_ && identified_->columns[1].size() >= 2)
            add(identified_, tr("identified"), tr("identified response"));
    }
    request.withPeak = peakWanted_ && !request.series.empty() && request.series.front().curve == tr("raw");
    request.peakColumn = name;
    const quint64 id = ++spectraRequest_;
    if (request.series.empty()) {
        peakWanted_ = false;
        showSpectra(SpectrumPreview{});
        return;
    }
    spectraPending_ = true;
    auto* watcher = new QFutureWatcher<SpectrumPreview>(this);
    connect(watcher, &QFutureWatcher<SpectrumPreview>::finished, this, [this, watcher, id] {
        watcher->deleteLater();
        if (id == spectraRequest_)
            showSpectra(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(computeSpectrumPreview, std::move(request)));
}

void FilterPanel::showSpectra(const SpectrumPreview& preview)
{
    spectraPending_ = false;
    for (const QString& curve : {tr("raw"), tr("processed"), tr("identified")})
        spectrumPlot_->removeCurve(curve);
    for (const auto& [curve, spectrum] : preview.spectra)
        spectrumPlot_->setCurve(curve, spectrum.frequency, spectrum.power);
    spectrumPlot_->setToolTip(preview.notes.isEmpty()
                                  ? QString()
                                  : tr("No spectrum: %1").arg(preview.notes.join(QStringLiteral("; "))));
    if (peakWanted_) {
        peak_ = preview.peak;
        peakWanted_ = false;
        updateSuggestions();
    }
}

}  // namespace sysid::ui
