// The EMPS positioning axis (Janot, Gautier and Brunot 2019), real measured data, end to end
// through the bundled projects as `sysid fit PROJECT` runs them:
//  - the plant M q'' = F - Fv q' - Fc sign(q') - offset by the multistep and single-step
//    equation-error methods (Normann 1989) from the measured force and position (the velocity
//    differentiated): M, Fv, Fc, offset within 1 % of the published inverse-dynamic-model
//    least-squares (IDIM-LS) values;
//  - the closed loop (controller with its 10 V saturation, reference position as input, force
//    and position as outputs) by output error from a start 20 % off: estimates within 5 % of
//    IDIM-LS, and the relative force error ||F - F_model|| / ||F|| on the estimation record
//    and on the validation record with force pulses, next to the published closed-loop
//    simulation's 5.85 % and 8.94 %. Pinned at 6.5 % and 10.5 % (today 6.19 % and 9.80 %:
//    the model's controller is continuous, the rig's has a one-sample delay and a
//    differentiated velocity).
// The full 24841-sample records are fitted, not decimated: the model smooths the Coulomb
// friction's sign(q') to tanh(q'/1e-4) (emps_closed_loop.model says why), which keeps the
// output-error fit near two seconds. With the friction's reversals and the controller's
// saturation located as events, the same fit of the model with sign(q') gives the smoothed
// model's estimates within 1 %.
#include "BenchmarkSupport.h"
#include "ValidationSupport.h"

#include <QtTest>

using namespace sysid;
using validation::estimateOf;
using validation::relativeError;

namespace {

// IDIM-LS, the benchmark description's section 3.4.
const std::vector<std::pair<std::string, double>> kPublished{
    {"M", 95.1089}, {"Fv", 203.5034}, {"Fc", 20.3935}, {"offset", -3.1648}};

QString table(const QString& label, const validation::TimedFit& fit)
{
    QString line = label.leftJustified(14);
    for (const auto& [name, value] : kPublished) {
        const auto& p = estimateOf(fit.result, name);
        line += QStringLiteral(" | %1 %2 (%3 %)")
                    .arg(QString::fromStdString(name))
                    .arg(QString::number(p.value, 'f', 4))
                    .arg(QString::number(100.0 * (p.value - value) / std::abs(value), 'f', 2));
    }
    return line + QStringLiteral(" | %1 it, %2 s").arg(fit.result.iterations).arg(fit.seconds, 0, 'f', 2);
}

void checkWithin(const estimate::FitResult& r, double bound)
{
    QVERIFY2(r.converged(), r.termination.message.c_str());
    for (const auto& [name, value] : kPublished) {
        const double e = relativeError(estimateOf(r, name).value, value);
        QVERIFY2(e < bound,
                 qPrintable(QStringLiteral("%1: %2 is %3 % off the published %4")
                                .arg(QString::fromStdString(name))
                                .arg(estimateOf(r, name).value)
                                .arg(100.0 * e)
                                .arg(value)));
    }
}

}  // namespace

class TestEmpsValidation : public QObject {
    Q_OBJECT

private slots:
    void plantByEquationError_data()
    {
        QTest::addColumn<int>("method");
        QTest::newRow("multistep") << static_cast<int>(estimate::EstimationMethod::Multistep);
        QTest::newRow("single-step") << static_cast<int>(estimate::EstimationMethod::SingleStep);
    }

    void plantByEquationError()
    {
        QFETCH(int, method);
        const project::Project p = validation::bundledProject("emps_plant.sysid");
        job::FitJob fit = project::makeFitJob(p);
        fit.settings.method = static_cast<estimate::EstimationMethod>(method);
        fit.settings.equationError.simulateFit = false;  // the plant alone drifts open loop
        const validation::TimedFit result = validation::runFit(fit);
        qInfo("%s", qPrintable(table(QString::fromLatin1(QTest::currentDataTag()), result)));
        checkWithin(result.result, 0.01);
    }

    void closedLoopByOutputError()
    {
        const project::Project p = validation::bundledProject("emps_closed_loop.sysid");
        QCOMPARE(p.data.size(), std::size_t(2));
        QVERIFY(p.data[1].role == project::DataRole::Validation);
        const job::FitJob fit = project::makeFitJob(p);
        QCOMPARE(fit.experiments.size(), std::size_t(1));  // the validation record is not fitted
        const auto model = validation::compiledText(p.modelText, p.modelSource);
        for (const auto& [name, value] : kPublished) {  // the fit starts 20 % off
            const double start = model->parameterValues[validation::parameterIndex(*model, name)];
            QVERIFY2(std::abs(relativeError(start, value) - 0.2) < 0.01, name.c_str());
        }
        const validation::TimedFit result = validation::runFit(fit);
        qInfo("%s", qPrintable(table(QStringLiteral("output error"), result)));
        checkWithin(result.result, 0.05);

        const std::array<double, 2> published{5.85, 8.94};
        const std::array<double, 2> pinned{6.5, 10.5};
        for (std::size_t record = 0; record < 2; ++record) {
            const auto simulated = validation::simulatedDataSet(p, fit, result.result, record);
            const double rms = simulated.residualRms[validation::outputIndex(simulated, "F")];
            const double relative = 100.0 * rms / validation::columnRms(p, record, "force_N");
            qInfo("%s record: relative force error %.2f %% (published closed-loop simulation %.2f %%)",
                  record == 0 ? "estimation" : "validation", relative, published[record]);
            QVERIFY2(relative < pinned[record], qPrintable(QString::number(relative)));
        }
    }

    void closedLoopWithEventsEqualsSmoothed()
    {
        const project::Project p = validation::bundledProject("emps_closed_loop.sysid");
        const job::FitJob smoothed = project::makeFitJob(p);
        job::FitJob switched = smoothed;
        switched.modelText = validation::replaced(smoothed.modelText, "Fc*tanh(q'/v0)", "Fc*sign(q')");
        const validation::TimedFit a = validation::runFit(smoothed), b = validation::runFit(switched);
        qInfo("%s", qPrintable(table(QStringLiteral("tanh(q'/v0)"), a)));
        qInfo("%s", qPrintable(table(QStringLiteral("sign(q')"), b)));
        QVERIFY2(a.result.converged(), a.result.termination.message.c_str());
        QVERIFY2(b.result.converged(), b.result.termination.message.c_str());
        for (const auto& [name, value] : kPublished) {
            const double e = relativeError(estimateOf(b.result, name).value, estimateOf(a.result, name).value);
            QVERIFY2(e < 0.01,
                     qPrintable(QStringLiteral("%1: %2 with sign(q'), %3 smoothed")
                                    .arg(QString::fromStdString(name))
                                    .arg(estimateOf(b.result, name).value)
                                    .arg(estimateOf(a.result, name).value)));
        }
    }
};

QTEST_GUILESS_MAIN(TestEmpsValidation)
#include "test_emps_validation.moc"
