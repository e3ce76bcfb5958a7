// Comparison of a fitted model with a record (engine/job/Comparison): the three measures against
// a hand computation, and the three sources of the estimated initial values on y' = -a y, whose
// response y0 exp(-a t) is known exactly.

#include "engine/data/DataTable.h"
#include "engine/job/Comparison.h"
#include "engine/job/JobError.h"

#include <QtTest>

#include <cmath>
#include <string>
#include <vector>

using namespace sysid;

namespace {

const std::string kDecay = "param a = 1 [0, 10]\n"
                           "state y = 2 estimate\n"
                           "y' = -a*y\n"
                           "output y\n"
                           "output w = 2*y\n";

// y = y0 exp(-a t) on t = 0, 0.05, ..., 5; the column w (the model's second output) is absent.
data::DataTable decayTable(double y0, double a)
{
    data::DataTable table;
    table.source = "decay.csv";
    table.columnNames = {"t", "y"};
    table.columns.resize(2);
    for (int i = 0; i <= 100; ++i) {
        const double t = 0.05 * i;
        table.columns[0].push_back(t);
        table.columns[1].push_back(y0 * std::exp(-a * t));
    }
    return table;
}

job::FitJob decayFit()
{
    job::FitJob fit;
    fit.modelText = kDecay;
    fit.modelSource = "decay.model";
    fit.settings.integrator.relativeTolerance = 1e-10;
    fit.settings.integrator.absoluteTolerance = 1e-12;
    return fit;
}

job::ExperimentData decayRecord()
{
    return job::ExperimentData{"decay record", decayTable(3.0, 1.0), {}, {}};
}

}  // namespace

class TestComparison : public QObject {
    Q_OBJECT

private slots:
    void measuresAgainstAHandComputation()
    {
        Eigen::VectorXd y(4), yhat(4);
        y << 1, 2, 3, 4;
        yhat << 1, 2, 3, 2;
        // residuals 0 0 0 2: |e| = 2, rmse = 2/sqrt(4) = 1; mean(y) = 2.5, |y - mean| = sqrt(5),
        // sd(y) (1/N) = sqrt(5/4): nrmse = 1/sqrt(5/4) = 2/sqrt(5), fit = 100 (1 - 2/sqrt(5)).
        const job::OutputAgreement a = job::outputAgreement(y, yhat);
        QCOMPARE(a.rmse, 1.0);
        QVERIFY(std::abs(a.nrmse - 2.0 / std::sqrt(5.0)) < 1e-15);
        QVERIFY(std::abs(a.fitPercent - 100.0 * (1.0 - 2.0 / std::sqrt(5.0))) < 1e-12);
        QVERIFY(std::abs(a.fitPercent - 10.557280900008408) < 1e-9);

        const job::OutputAgreement perfect = job::outputAgreement(y, y);
        QCOMPARE(perfect.rmse, 0.0);
        QCOMPARE(perfect.fitPercent, 100.0);
        // The measured mean as the model: fit 0 %, nrmse 1.
        const job::OutputAgreement mean = job::outputAgreement(y, Eigen::VectorXd::Constant(4, 2.5));
        QVERIFY(std::abs(mean.fitPercent) < 1e-12);
        QVERIFY(std::abs(mean.nrmse - 1.0) < 1e-12);
        // A constant measurement has no spread to normalise by.
        const job::OutputAgreement flat = job::outputAgreement(Eigen::VectorXd::Constant(3, 1.0), yhat.head(3));
        QVERIFY(std::isnan(flat.nrmse) && std::isnan(flat.fitPercent));
        QVERIFY(std::isfinite(flat.rmse));
    }

    void resultTakesTheFitsInitialValue()
    {
        const job::Comparison c = job::compareWithRecord(decayFit(), decayRecord(), 0, {{"a", 1.0}, {"y(0)", 3.0}},
                                                         {job::InitialValueSource::Result});
        QCOMPARE(c.simulation.stateNames, std::vector<std::string>{"y"});
        QVERIFY(std::abs(c.simulation.initialState(0) - 3.0) < 1e-12);
        QCOMPARE(c.agreement.size(), std::size_t{2});
        QVERIFY(c.agreement[0].rmse < 1e-7);
        QVERIFY(c.agreement[0].fitPercent > 99.99999);
        // w is not in the record: nothing to compare.
        QVERIFY(std::isnan(c.agreement[1].rmse) && std::isnan(c.agreement[1].fitPercent));
    }

    void modelTakesTheModelsInitialValue()
    {
        const job::Comparison c = job::compareWithRecord(decayFit(), decayRecord(), 0, {{"a", 1.0}, {"y(0)", 3.0}},
                                                         {job::InitialValueSource::Model});
        QVERIFY(std::abs(c.simulation.initialState(0) - 2.0) < 1e-12);
        // Residual exp(-t) (3 e^-t measured, 2 e^-t simulated): the measures by their definitions.
        const auto& t = c.simulation.times;
        double squares = 0, mean = 0, spread = 0;
        for (double ti : t) {
            squares += std::exp(-2 * ti);
            mean += 3 * std::exp(-ti) / static_cast<double>(t.size());
        }
        for (double ti : t)
            spread += std::pow(3 * std::exp(-ti) - mean, 2);
        const double rmse = std::sqrt(squares / static_cast<double>(t.size()));
        QVERIFY(std::abs(c.agreement[0].rmse - rmse) < 1e-7);
        QVERIFY(std::abs(c.agreement[0].fitPercent - 100 * (1 - std::sqrt(squares / spread))) < 1e-5);
        QVERIFY(c.agreement[0].fitPercent < 90);
    }

    void estimateRecoversTheInitialValueWithTheParametersFixed()
    {
        // The fit's y(0) is wrong (2) and its a is 1.2, not the record's 1: re-estimating y(0) on
        // the first second with a held at 1.2 gives the least-squares y0 of y0 e^-1.2t to 3 e^-t there.
        const job::Comparison c = job::compareWithRecord(decayFit(), decayRecord(), 0, {{"a", 1.2}, {"y(0)", 2.0}},
                                                         {job::InitialValueSource::Estimate, 1.0});
        double num = 0, den = 0;
        for (int i = 0; i <= 20; ++i) {
            const double t = 0.05 * i;
            num += 3 * std::exp(-t) * std::exp(-1.2 * t);
            den += std::exp(-2.4 * t);
        }
        QVERIFY2(std::abs(c.simulation.initialState(0) - num / den) < 1e-6,
                 qPrintable(QString::number(c.simulation.initialState(0), 'g', 12)));
        // a stayed at 1.2 over the whole record.
        const Eigen::VectorXd& y = c.simulation.outputs.col(0);
        for (Eigen::Index i = 0; i < y.size(); i += 10)
            QVERIFY(std::abs(y(i) - num / den * std::exp(-1.2 * c.simulation.times[static_cast<std::size_t>(i)])) <
                    1e-7);

        // With the right a it recovers the record's y0 = 3, and the whole record fits.
        const job::Comparison right = job::compareWithRecord(decayFit(), decayRecord(), 0, {{"a", 1.0}, {"y(0)", 2.0}},
                                                             {job::InitialValueSource::Estimate, 0.5});
        QVERIFY(std::abs(right.simulation.initialState(0) - 3.0) < 1e-6);
        QVERIFY(right.agreement[0].fitPercent > 99.999);
    }

    void estimateRefusesWhatItCannotDo()
    {
        try {
            job::compareWithRecord(decayFit(), decayRecord(), 0, {{"a", 1.0}},
                                   {job::InitialValueSource::Estimate, 0.01});
            QFAIL("a stretch with one sample was accepted");
        } catch (const job::JobError& e) {
            QVERIFY2(QString(e.what()).contains("decay record") && QString(e.what()).contains("fewer than two"),
                     e.what());
        }
        job::FitJob known = decayFit();
        known.modelText = "param a = 1\nstate y = 3\ny' = -a*y\noutput y\n";
        try {
            job::compareWithRecord(known, decayRecord(), 0, {{"a", 1.0}}, {job::InitialValueSource::Estimate});
            QFAIL("a model without estimated initial values was accepted");
        } catch (const job::JobError& e) {
            QVERIFY2(QString(e.what()).contains("estimates no initial value"), e.what());
        }
    }

    void spellings()
    {
        QCOMPARE(job::kInitialValueSources.parse("estimate"), job::InitialValueSource::Estimate);
        QCOMPARE(job::kInitialValueSources.parse("model"), job::InitialValueSource::Model);
        QCOMPARE(job::kInitialValueSources.name(job::InitialValueSource::Result), std::string_view("result"));
        QVERIFY(!job::kInitialValueSources.parse("fit"));
    }
};

QTEST_GUILESS_MAIN(TestComparison)
#include "test_comparison.moc"
