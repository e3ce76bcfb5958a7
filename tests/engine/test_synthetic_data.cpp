// Synthetic data (engine/job/SyntheticData, SimulationJob::runSynthetic): the one recipe of
// simulate-plus-noise behind `sysid simulate --noise-rms` and the desktop application. The
// expected files in tests/engine/data were written by `sysid simulate` before both front ends
// shared this code; the engine must reproduce them byte for byte.
#include "TextTestSupport.h"

#include "engine/data/CsvReader.h"
#include "engine/data/CsvWriter.h"
#include "engine/integrate/Simulator.h"
#include "engine/job/JobError.h"
#include "engine/job/SimulationJob.h"
#include "engine/job/SyntheticData.h"

#include <QtTest>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

using namespace sysid;
using sysid::test::kExamples;
using sysid::test::slurp;

namespace {

const std::string kExpected = SYSID_SOURCE_DIR "/tests/engine/data/";

std::string csvText(const job::SyntheticData& record)
{
    std::ostringstream out;
    data::writeCsv(out, record.header, record.columns);
    return out.str();
}

job::SimulationJob simulationOf(const std::string& modelFile, double tEnd, double dt)
{
    job::SimulationJob simulation;
    simulation.modelText = slurp(kExamples + modelFile);
    simulation.modelSource = modelFile;
    simulation.times = integrate::uniformGrid(0.0, tEnd, dt);
    return simulation;
}

}  // namespace

class TestSyntheticData : public QObject {
    Q_OBJECT

private slots:
    // sysid simulate two_dof_cubic.model --t-end 4 --dt 0.05 --noise-rms 5 --seed 42
    void uniformNoiseMatchesTheCommandLineFile()
    {
        job::SimulationJob simulation = simulationOf("two_dof_cubic.model", 4.0, 0.05);
        simulation.noise = job::OutputNoise{5.0, data::NoiseDistribution::Uniform, 42};
        job::NullProgressSink sink;
        const job::SyntheticData record = simulation.runSynthetic(sink);
        QCOMPARE(record.header, (std::vector<std::string>{"t", "u1", "v1", "u2", "v2"}));
        const std::string expected = slurp(kExpected + "synthetic_two_dof_cubic_uniform5_seed42.csv");
        QVERIFY(!expected.empty());
        QVERIFY(csvText(record) == expected);
    }

    // sysid simulate forced_input_sdof.model --t-end 5 --dt 0.05 --input forced_input_sdof_force.csv
    //     --noise-rms 3 --noise-dist gaussian --seed 7
    void gaussianNoiseWithInputsMatchesTheCommandLineFile()
    {
        job::SimulationJob simulation = simulationOf("forced_input_sdof.model", 5.0, 0.05);
        simulation.inputs = data::readCsv(kExamples + "forced_input_sdof_force.csv");
        simulation.noise = job::OutputNoise{3.0, data::NoiseDistribution::Gaussian, 7};
        job::NullProgressSink sink;
        const std::string expected = slurp(kExpected + "synthetic_forced_input_sdof_gaussian3_seed7.csv");
        QVERIFY(!expected.empty());
        QVERIFY(csvText(simulation.runSynthetic(sink)) == expected);
    }

    // Without noise the record is the simulation itself; another seed gives other noise.
    void noiseIsOptionalAndSeeded()
    {
        job::SimulationJob simulation = simulationOf("two_dof_cubic.model", 2.0, 0.1);
        job::NullProgressSink sink;
        const integrate::Trajectory clean = simulation.run(sink);
        const job::SyntheticData exact = simulation.runSynthetic(sink);
        QCOMPARE(exact.columns.size(), std::size_t(5));
        QVERIFY(exact.columns[0] == clean.times);
        for (Eigen::Index j = 0; j < clean.outputs.cols(); ++j) {
            const Eigen::VectorXd column = clean.outputs.col(j);
            QVERIFY(exact.columns[static_cast<std::size_t>(j) + 1] ==
                    std::vector<double>(column.data(), column.data() + column.size()));
        }
        simulation.noise = job::OutputNoise{5.0, data::NoiseDistribution::Uniform, 1};
        const job::SyntheticData one = simulation.runSynthetic(sink);
        simulation.noise->seed = 2;
        const job::SyntheticData two = simulation.runSynthetic(sink);
        QVERIFY(one.columns[0] == two.columns[0]);  // the time is never noisy
        QVERIFY(one.columns[1] != two.columns[1]);
        QVERIFY(one.columns[1] != exact.columns[1]);
        // The outputs draw from one generator in turn: the second output's noise is not the first's.
        double first = 0, second = 0;
        for (std::size_t i = 0; i < one.columns[1].size(); ++i) {
            first += one.columns[1][i] - exact.columns[1][i];
            second += one.columns[3][i] - exact.columns[3][i];
        }
        QVERIFY(first != second);
    }

    void badNoiseIsASettingsError()
    {
        job::SimulationJob simulation = simulationOf("two_dof_cubic.model", 1.0, 0.1);
        simulation.noise = job::OutputNoise{-1.0, data::NoiseDistribution::Uniform, 0};
        job::NullProgressSink sink;
        try {
            simulation.runSynthetic(sink);
            QFAIL("a negative noise level was accepted");
        } catch (const job::JobError& e) {
            QCOMPARE(e.kind(), job::JobError::Kind::Settings);
            QVERIFY2(std::string(e.what()).find("-1") != std::string::npos, e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestSyntheticData)
#include "test_synthetic_data.moc"
