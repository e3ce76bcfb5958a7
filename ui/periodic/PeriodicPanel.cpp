#include "ui/periodic/PeriodicPanel.h"

#include "ui/settings/EnumCombo.h"
#include "ui/settings/IntersampleTable.h"
#include "ui/settings/NumberField.h"

#include "engine/shooting/JacobianReuse.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace sysid::ui {

namespace {

QSpinBox* spin(int low, int high, int value)
{
    auto* s = new QSpinBox;
    s->setRange(low, high);
    s->setValue(value);
    return s;
}

QString complexText(const std::complex<double>& mu)
{
    if (std::abs(mu.imag()) < 1e-12 * std::max(1.0, std::abs(mu.real())))
        return QString::number(mu.real(), 'g', 6);
    return QStringLiteral("%1 %2 %3i")
        .arg(QString::number(mu.real(), 'g', 6), mu.imag() < 0 ? QStringLiteral("−") : QStringLiteral("+"),
             QString::number(std::abs(mu.imag()), 'g', 6));
}

}  // namespace

PeriodicPanel::PeriodicPanel(QWidget* parent) : QWidget(parent)
{
    period_ = new NumberField(6.283185307179586);
    period_->setObjectName(QStringLiteral("periodicPeriodField"));
    period_->describe(job::periodicJobFields(), "period");
    // The table's rule allows 0 for a frequency sweep, which sets the period; the field is then off.
    period_->setRule({core::NumberRule::Bound::Positive, "a number > 0"});
    periods_ = spin(1, 64, 1);
    periods_->setToolTip(tr("n for an n·T-periodic (subharmonic) solution"));
    solver_ = new QComboBox;
    fillCombo(solver_, discretise::kPeriodicSolvers);
    intervals_ = spin(1, 10000, 1);
    intervals_->setToolTip(tr("1 = single shooting; more for unstable or stiff orbits"));
    nodes_ = spin(10, 1000000, 200);
    scheme_ = new QComboBox;
    fillCombo(scheme_, discretise::kPeriodicSchemes);
    const job::PeriodicJob defaults;
    showComboValue(scheme_, defaults.scheme);
    jacobianReuse_ = new QComboBox;
    fillCombo(jacobianReuse_, shooting::kJacobianReuse);
    showComboValue(jacobianReuse_, defaults.shooting.jacobianReuse);
    explainChoice(jacobianReuse_,
                  QString::fromUtf8(
                      std::string(core::findField(job::periodicJobFields(), "jacobian_reuse")->names.help).c_str()));
    settle_ = spin(0, 100000, static_cast<int>(defaults.settlePeriods));
    settle_->setToolTip(tr("Periods simulated from the model's initial state before Newton starts"));

    auto* form = new QFormLayout;
    form->addRow(tr("Period T"), period_);
    form->addRow(tr("Periods per orbit"), periods_);
    form->addRow(tr("Solver"), solver_);
    form->addRow(tr("Shooting intervals"), intervals_);
    form->addRow(tr("Nodes per period"), nodes_);
    form->addRow(tr("Scheme"), scheme_);
    form->addRow(tr("Jacobian re-use"), jacobianReuse_);
    form->addRow(tr("Settling periods"), settle_);

    sweep_ = new QGroupBox(tr("Continuation (frequency response)"));
    sweep_->setCheckable(true);
    sweep_->setChecked(false);
    sweepParameter_ = new QComboBox;
    const auto sweepEnd = [](double value, const QString& name, const QString& label) {
        auto* field = new NumberField(value);
        field->setObjectName(name);
        field->setLabel(label);
        field->setRule(core::kAnyNumber);
        field->setHelp(tr("The continuation runs from this value of the parameter to the other (a frequency: > 0)."));
        return field;
    };
    sweepFrom_ = sweepEnd(0.5, QStringLiteral("sweepFromField"), tr("continuation start"));
    sweepTo_ = sweepEnd(2.0, QStringLiteral("sweepToField"), tr("continuation end"));
    frequency_ = new QCheckBox(tr("the parameter is the forcing frequency (T = 2π/p)"));
    frequency_->setChecked(true);
    continuation_ = new QComboBox;
    fillCombo(continuation_, shooting::kContinuationMethods);
    showComboValue(continuation_, job::PeriodicSweep{}.method);
    amplitudeState_ = new QComboBox;
    auto* sweepForm = new QFormLayout(sweep_);
    sweepForm->addRow(tr("Parameter"), sweepParameter_);
    sweepForm->addRow(tr("From"), sweepFrom_);
    sweepForm->addRow(tr("To"), sweepTo_);
    sweepForm->addRow(frequency_);
    sweepForm->addRow(tr("Method"), continuation_);
    sweepForm->addRow(tr("Amplitude of"), amplitudeState_);

    // The measured excitation of a model with inputs: its record over one period or several.
    inputBox_ = new QGroupBox(tr("Measured excitation"));
    inputBox_->setObjectName(QStringLiteral("periodicInputBox"));
    inputSource_ = new QComboBox;
    inputSource_->setToolTip(tr("The record of the model's inputs: a data set of the project or a CSV file, "
                                "read over one forcing period T (or whole periods) and repeated every period"));
    inputFile_ = new QLineEdit;
    inputFile_->setReadOnly(true);
    inputFile_->setPlaceholderText(tr("no file chosen"));
    browse_ = new QPushButton(tr("Choose…"));
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(inputFile_, 1);
    fileRow->addWidget(browse_);
    inputPeriods_ = new QComboBox;
    inputPeriods_->addItem(tr("all whole periods, averaged"), 0);
    inputPeriods_->addItem(tr("the first period only"), 1);
    inputPeriods_->setToolTip(tr("A record longer than T must be sampled at a whole fraction of T; its whole "
                                 "periods are averaged sample by sample"));
    intersample_ = new IntersampleTable;
    auto* inputForm = new QFormLayout(inputBox_);
    inputForm->addRow(tr("Record"), inputSource_);
    inputForm->addRow(tr("File"), fileRow);
    inputForm->addRow(tr("Periods"), inputPeriods_);
    inputForm->addRow(intersample_);
    inputBox_->setVisible(false);
    setDataSets({});

    run_ = new QPushButton(tr("Find periodic solution"));
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setEnabled(false);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    result_ = new QLabel;
    result_->setWordWrap(true);
    result_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(inputBox_);
    layout->addWidget(sweep_);
    layout->addLayout(buttons);
    layout->addWidget(result_);
    layout->addStretch();

    connect(run_, &QPushButton::clicked, this, &PeriodicPanel::runRequested);
    connect(cancel_, &QPushButton::clicked, this, &PeriodicPanel::cancelRequested);
    connect(solver_, &QComboBox::currentIndexChanged, this, &PeriodicPanel::updateEnabled);
    connect(frequency_, &QCheckBox::toggled, this, &PeriodicPanel::updateEnabled);
    connect(sweep_, &QGroupBox::toggled, this, &PeriodicPanel::updateEnabled);
    connect(inputSource_, &QComboBox::currentIndexChanged, this, &PeriodicPanel::updateEnabled);
    connect(browse_, &QPushButton::clicked, this, &PeriodicPanel::chooseInputFile);
    updateEnabled();
}

void PeriodicPanel::setDataSets(const QStringList& names)
{
    const QString chosen = inputSource_->currentText();
    // A file the user chose stays chosen; the file entry that was merely the only one does not.
    const bool wasFile =
        inputSource_->count() > 0 && inputSource_->currentData().toInt() < 0 && !inputFile_->text().isEmpty();
    inputSource_->clear();
    for (int i = 0; i < names.size(); ++i)
        inputSource_->addItem(names[i], i);
    inputSource_->addItem(tr("CSV file"), -1);
    const int keep = names.contains(chosen) ? inputSource_->findText(chosen) : 0;
    inputSource_->setCurrentIndex(wasFile || names.isEmpty() ? inputSource_->count() - 1 : keep);
}

int PeriodicPanel::inputDataSet() const
{
    return inputSource_->currentData().toInt();
}

QString PeriodicPanel::inputFile() const
{
    return inputFile_->text();
}

void PeriodicPanel::setInputFile(const QString& path)
{
    inputFile_->setText(path);
    inputSource_->setCurrentIndex(inputSource_->count() - 1);
}

void PeriodicPanel::chooseInputFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Record of the measured excitation"), inputFile(),
                                                      tr("CSV files (*.csv *.txt);;All files (*)"));
    if (!path.isEmpty())
        setInputFile(path);
}

void PeriodicPanel::updateEnabled()
{
    const bool shooting = comboValue<discretise::PeriodicSolver>(solver_) == discretise::PeriodicSolver::Shooting;
    intervals_->setEnabled(shooting);
    nodes_->setEnabled(!shooting);
    scheme_->setEnabled(!shooting);
    jacobianReuse_->setEnabled(shooting);
    // A frequency sweep sets the period itself.
    period_->setEnabled(!(sweep_->isChecked() && frequency_->isChecked()));
    const bool file = inputDataSet() < 0;
    inputFile_->setEnabled(file);
    browse_->setEnabled(file);
}

void PeriodicPanel::setModel(const ModelSummary& summary)
{
    if (!summary.valid)
        return;
    const QString parameter = sweepParameter_->currentText();
    const QString state = amplitudeState_->currentText();
    sweepParameter_->clear();
    for (const auto& p : summary.parameters)
        if (!p.isInitialValue)
            sweepParameter_->addItem(QString::fromStdString(p.name));
    amplitudeState_->clear();
    for (const auto& s : summary.states)
        amplitudeState_->addItem(QString::fromStdString(s));
    // Keep the choice when the name survives; a frequency parameter named w is the likely sweep.
    const int keep = sweepParameter_->findText(parameter);
    sweepParameter_->setCurrentIndex(keep >= 0 ? keep : std::max(0, sweepParameter_->findText(QStringLiteral("w"))));
    amplitudeState_->setCurrentIndex(std::max(0, amplitudeState_->findText(state)));
    const bool hadInputs = hasInputs_;
    hasInputs_ = !summary.inputs.empty();
    QStringList inputs;
    for (const auto& i : summary.inputs)
        inputs << QString::fromStdString(i);
    intersample_->setInputs(inputs, summary.declaredIntersample);
    // As tall as its rows (up to four), no empty space under one input.
    const int rows = std::clamp(intersample_->rowCount(), 1, 4);
    intersample_->setFixedHeight(intersample_->horizontalHeader()->sizeHint().height() +
                                 rows * intersample_->verticalHeader()->defaultSectionSize() +
                                 2 * intersample_->frameWidth());
    inputBox_->setVisible(hasInputs_);
    inputBox_->setTitle(tr("Measured excitation: %1").arg(inputs.join(QStringLiteral(", "))));
    // A measured record fixes the forcing period: a frequency sweep cannot move it.
    if (hasInputs_ && !hadInputs)
        frequency_->setChecked(false);
}

std::optional<job::PeriodicJob> PeriodicPanel::job(const QString& modelText, const QString& source,
                                                   QString* error) const
{
    const auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return std::optional<job::PeriodicJob>();
    };
    job::PeriodicJob j;
    j.modelText = modelText.toStdString();
    j.modelSource = source.toStdString();
    j.solver = comboValue<discretise::PeriodicSolver>(solver_);
    j.shooting.periods = static_cast<std::size_t>(periods_->value());
    j.shooting.intervals = static_cast<std::size_t>(intervals_->value());
    j.nodes = static_cast<std::size_t>(nodes_->value());
    j.scheme = comboValue<discretise::PeriodicScheme>(scheme_);
    j.shooting.jacobianReuse = comboValue<shooting::JacobianReuse>(jacobianReuse_);
    j.settlePeriods = static_cast<std::size_t>(settle_->value());
    if (sweep_->isChecked()) {
        job::PeriodicSweep s;
        s.parameter = sweepParameter_->currentText().toStdString();
        if (s.parameter.empty())
            return fail(tr("Continuation: the model has no parameter to continue."));
        for (const NumberField* end : {sweepFrom_, sweepTo_})
            if (!end->isValid())
                return fail(tr("Continuation: %1.").arg(end->problem()));
        s.from = sweepFrom_->value();
        s.to = sweepTo_->value();
        s.frequency = frequency_->isChecked();
        s.method = comboValue<shooting::ContinuationMethod>(continuation_);
        s.amplitudeState = amplitudeState_->currentText().toStdString();
        j.sweep = s;
    }
    if (!(j.sweep && j.sweep->frequency)) {
        if (!period_->isValid())
            return fail(period_->problem() + QLatin1Char('.'));
        j.shooting.period = period_->value();
    }
    if (hasInputs_) {
        if (inputDataSet() < 0 && inputFile().isEmpty())
            return fail(tr("Measured excitation: choose the record of %1 (a data set of the project or a CSV file).")
                            .arg(intersample_->inputs().join(QStringLiteral(", "))));
        j.inputPeriods = static_cast<std::size_t>(inputPeriods_->currentData().toInt());
        // Only the model's inputs: the table keeps choices of inputs an earlier model text had.
        for (const auto& [input, behaviour] : intersample_->choices())
            if (intersample_->inputs().contains(QString::fromStdString(input)))
                j.intersample[input] = behaviour;
    }
    try {
        j.validate();
    } catch (const core::SettingError& e) {
        const bool sweep = e.key().starts_with("sweep.");
        return fail((sweep ? tr("Continuation: %1") : QStringLiteral("%1")).arg(QString::fromStdString(e.what())));
    }
    return j;
}

void PeriodicPanel::showResult(const job::PeriodicJob::Result& result)
{
    const auto& s = result.solution;
    if (!s.converged()) {
        showMessage(tr("No periodic solution: %1").arg(QString::fromStdString(s.newton.termination.message)));
        return;
    }
    QStringList multipliers;
    for (const auto& mu : s.floquet.multipliers)
        multipliers << complexText(mu);
    QString text = tr("Period %1 (%2 Newton iterations)\nFloquet multipliers: %3\n%4")
                       .arg(QString::number(s.period, 'g', 10))
                       .arg(s.newton.iterations)
                       .arg(multipliers.join(QStringLiteral(", ")), QString::fromStdString(s.floquet.verdict));
    if (result.branch) {
        int folds = 0, doublings = 0;
        for (const auto& p : result.branch->points) {
            folds += p.type == shooting::BranchPointType::Fold ? 1 : 0;
            doublings += p.type == shooting::BranchPointType::PeriodDoubling ? 1 : 0;
        }
        text += tr("\nBranch: %1 points, %2 fold(s), %3 period doubling(s); %4")
                    .arg(result.branch->points.size())
                    .arg(folds)
                    .arg(doublings)
                    .arg(QString::fromStdString(result.branch->termination.message));
    }
    showMessage(text);
}

void PeriodicPanel::showMessage(const QString& message)
{
    result_->setText(message);
}

QString PeriodicPanel::resultText() const
{
    return result_->text();
}

void PeriodicPanel::setRunning(bool running)
{
    run_->setEnabled(!running);
    cancel_->setEnabled(running);
}

}  // namespace sysid::ui
