// Issue 5: periodic-response identification of the hardening Duffing oscillator
// (resources/examples/duffing_periodic.model) from steady states at three forcing frequencies
// with 2 % Gaussian noise: the estimates lie within 3 reported sd of the truth, in few iterations.
#include "ValidationSupport.h"

#include <QtTest>

#include <numbers>

using namespace sysid;

namespace {

constexpr double pi = std::numbers::pi;
const char* names[] = {"c", "k", "k3", "B"};
const double truth[] = {0.2, 1.0, 0.5, 0.5};

// 50 samples over two periods after 60 periods from rest, which is the steady state to
// exp(-0.1 * 60 * 2*pi/2.5) < 1e-6 of the transient, far below the noise.
estimate::Experiment steadyState(const std::shared_ptr<const eval::CompiledModelSource>& model, double w,
                                 std::uint64_t seed)
{
    std::vector<double> values = model->parameterValues;
    values[4] = w;
    const double T = 2 * pi / w;
    std::vector<double> times;
    for (int i = 0; i < 50; ++i)
        times.push_back(60 * T + T * i / 25.0);
    std::vector<double> grid{0.0};
    grid.insert(grid.end(), times.begin(), times.end());
    auto clean = test::simulatedExperiment(model, values, grid);
    estimate::Experiment e;
    e.name = "w=" + std::to_string(w);
    e.times = times;
    e.measured = Eigen::MatrixXd(clean.measured.bottomRows(50));
    e.outputMeasured = {true};
    e.fixedValues["w"] = w;
    // 2 % of this record's RMS, Gaussian.
    const double sd = 0.02 * std::sqrt(e.measured.col(0).squaredNorm() / 50.0);
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> noise(0.0, sd);
    for (Eigen::Index i = 0; i < 50; ++i)
        e.measured(i, 0) += noise(rng);
    return e;
}

}  // namespace

class TestPeriodicIdentificationValidation : public QObject {
    Q_OBJECT

private slots:
    void noisyResponsesWithinThreeSd_data()
    {
        QTest::addColumn<int>("seed");
        QTest::addColumn<bool>("discretised");
        QTest::newRow("noise seed 1") << 1 << false;
        QTest::newRow("noise seed 2") << 2 << false;
        QTest::newRow("noise seed 3") << 3 << false;
        QTest::newRow("noise seed 1, Hermite-Simpson 100 nodes") << 1 << true;
    }

    void noisyResponsesWithinThreeSd()
    {
        QFETCH(int, seed);
        QFETCH(bool, discretised);
        const auto model = validation::compiledExample("duffing_periodic.model");
        std::vector<estimate::Experiment> data;
        std::uint64_t s = static_cast<std::uint64_t>(seed) * 10;
        for (double w : {0.5, 1.0, 2.5})
            data.push_back(steadyState(model, w, ++s));
        estimate::FitSettings settings;
        settings.method = estimate::EstimationMethod::PeriodicResponse;
        settings.integrator = test::tight(integrate::IntegrationMethod::Dopri5, 1e-10, 1e-12);
        settings.periodic.frequencyParameter = "w";
        if (discretised) {
            settings.periodic.solver = discretise::PeriodicSolver::Discretisation;
            settings.periodic.nodes = 100;
        }
        std::vector<double> start = model->parameterValues;
        start[0] = 0.3;  // +50 %
        start[1] = 0.5;  // -50 %
        start[2] = 0.75;  // +50 %
        start[3] = 0.25;  // -50 %
        const auto r = estimate::fit(model, start, data, settings);
        qInfo("noise seed %d: %zu iterations, %s", seed, r.iterations, r.termination.message.c_str());
        QVERIFY(r.converged());
        QVERIFY2(r.iterations <= 15, "the fit should converge in few iterations");
        for (std::size_t i = 0; i < 4; ++i) {
            const auto& p = r.parameters[i];
            QCOMPARE(p.name, std::string(names[i]));
            const double z = (p.value - truth[i]) / p.sd;
            qInfo("  %-3s = %.6f +- %.6f (truth %g, %+.2f sd)", p.name.c_str(), p.value, p.sd, truth[i], z);
            QVERIFY2(std::isfinite(p.sd) && p.sd > 0, p.name.c_str());
            QVERIFY2(std::abs(z) < 3, p.name.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestPeriodicIdentificationValidation)
#include "test_periodic_identification_validation.moc"
