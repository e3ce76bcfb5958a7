// Project files (engine/project): the .sysid JSON format, its round trip, every load error
// with the file and the JSON key, atomic saving, and RESULT.json from a FitResult.

#include "TextTestSupport.h"

#include "engine/project/AtomicFile.h"
#include "engine/project/OptimalEstimationJson.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"
#include "engine/project/ResultJson.h"

#include <QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;
using namespace sysid;
using sysid::test::contains;
using sysid::test::kExamples;
using sysid::test::slurp;

namespace {

void write(const fs::path& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary);
    out << text;
}

// Every file below `root` with its bytes (directories as "<dir>").
std::map<std::string, std::string> snapshot(const fs::path& root)
{
    std::map<std::string, std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(root))
        files[entry.path().string()] = entry.is_directory() ? "<dir>" : slurp(entry.path());
    return files;
}

// A fresh empty directory under the system's temporary folder.
class TempDir {
public:
    TempDir()
    {
        std::string pattern = (fs::temp_directory_path() / "sysid_test_project_XXXXXX").string();
        path_ = ::mkdtemp(pattern.data()) ? fs::path(pattern) : fs::path();
    }
    ~TempDir()
    {
        std::error_code ec;
        fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(path_, ec);
    }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

// A valid project file's JSON with one data file data/run1.csv next to it.
json minimalProject()
{
    return json{
        {"version", 1},
        {"model", {{"source", "osc.model"}, {"text", {"param c = 0.1", "x'' = -c*x' - x", "x(0) = 1, 0", "output x"}}}},
        {"data", json::array({{{"path", "data/run1.csv"}}})}};
}

void writeData(const fs::path& dir)
{
    fs::create_directories(dir / "data");
    write(dir / "data/run1.csv", "t,x\n0,1\n0.1,0.99\n0.2,0.98\n0.3,0.96\n");
}

// loadProject's error for a project file with this JSON text.
std::string loadError(const fs::path& dir, const std::string& text, std::string* key = nullptr)
{
    const fs::path file = dir / "p.sysid";
    write(file, text);
    try {
        project::loadProject(file.string());
    } catch (const project::ProjectError& e) {
        if (key)
            *key = e.key;
        return e.what();
    }
    return "(no error)";
}

// A damped oscillator with three records run1..run3.csv written under dir/data, all fitted.
project::Project threeRecords(const fs::path& dir)
{
    writeData(dir);
    write(dir / "data/run2.csv", "t,x\n0,2\n0.1,1.9\n");
    write(dir / "data/run3.csv", "t,x\n0,3\n0.1,2.9\n");
    project::Project p;
    p.modelText = "param c = 0.1\nx'' = -c*x' - x\nx(0) = 1, 0\noutput x\n";
    for (const char* file : {"run1.csv", "run2.csv", "run3.csv"}) {
        project::Project::DataSet set;
        set.path = (dir / "data" / file).string();
        set.name = file;
        p.data.push_back(set);
    }
    return p;
}

}  // namespace

class TestProject : public QObject {
    Q_OBJECT

private slots:
    void roundTrip()
    {
        TempDir tmp;
        writeData(tmp.path());
        project::Project p;
        p.modelText = "# oscillator\nparam c = 0.1 [0, 10]\nx'' = -c*x' - x\nx(0) = 1, 0\noutput x\n";
        p.modelSource = "osc.model";
        project::Project::DataSet set;
        set.name = "first run";
        set.path = (tmp.path() / "data/run1.csv").string();
        set.timeColumn = "t";
        set.mapping = {{"x", "x"}};
        set.fixedValues = {{"k", 2.0}};
        set.trueValues = {{"c", 0.4}, {"k", 2.0}};
        p.data.push_back(set);
        p.preprocessing = json{{"decimation", 2}, {"window", {{"start", 0.0}, {"end", 0.25}}}};
        p.settings.method = estimate::EstimationMethod::Bayes;
        p.settings.integrator.method = integrate::IntegrationMethod::Rosenbrock4;
        p.settings.integrator.methodChosen = true;
        p.settings.integrator.relativeTolerance = 1e-7;
        p.settings.integrator.absoluteTolerance = 1e-9;
        p.settings.integrator.maxStep = 0.05;
        p.settings.integrator.maxSteps = 5000;
        p.settings.maxIterations = 42;
        p.settings.costTolerance = 1e-9;
        p.settings.stepTolerance = 1e-8;
        p.settings.gradientTolerance = 1e-7;
        p.settings.shootingIntervals = 7;
        p.settings.steepestDescentGain = 0.035;
        p.settings.sensitivity = estimate::SensitivityMethod::Structural;
        p.settings.outputWeights = {{"x", 2.5}};
        p.settings.priors = {{"c", {0.2, 0.05}}};
        p.parameterValues = {{"c", 0.3}, {"x'(0)", 0.5}};
        p.lastResult = json{{"cost", 1.5}, {"converged", true}};
        p.optimalEstimation.emplace();
        p.optimalEstimation->stateWeights = {{"x", 2.0}, {"c", 1e6}};
        p.optimalEstimation->measurementWeights = {{"x", 1e4}, {"eom:x", 0.0}};
        p.optimalEstimation->initialPrior = {{"x", {1.0, 1e3}}};
        p.optimalEstimation->shootingPoints = 51;
        p.optimalEstimation->stages.front().integrator.method = integrate::IntegrationMethod::CrankNicolson;
        p.optimalEstimation->stages.front().stepsPerInterval = 4;
        p.optimalEstimation->stages[1].integrator.method = integrate::IntegrationMethod::Rosenbrock4;
        p.optimalEstimation->stages[1].integrator.relativeTolerance = 1e-7;
        p.optimalEstimation->stages[2].previousJacobians = false;
        p.optimalEstimation->guessExpressions = {{"x", "2*y_m + sin(t)"}};
        p.optimalEstimation->guessFrom = (tmp.path() / "runs" / "previous.json").string();
        p.lastOptimalResult = json{{"cost", 0.5}};

        const fs::path file = tmp.path() / "osc.sysid";
        project::saveProject(p, file.string());
        QVERIFY(!fs::exists(file.string() + ".tmp"));
        const json written = json::parse(slurp(file));
        QCOMPARE(written["data"][0]["path"].get<std::string>(), std::string("data/run1.csv"));  // relative

        const project::Project q = project::loadProject(file.string());
        QCOMPARE(q.version, 1);
        QCOMPARE(q.modelText, p.modelText);
        QCOMPARE(q.modelSource, p.modelSource);
        QCOMPARE_EQ(q.data.size(), std::size_t{1});
        QCOMPARE(q.data[0].name, p.data[0].name);
        QVERIFY(fs::equivalent(q.data[0].path, p.data[0].path));
        QCOMPARE(q.data[0].timeColumn, p.data[0].timeColumn);
        QCOMPARE(q.data[0].mapping, p.data[0].mapping);
        QCOMPARE(q.data[0].fixedValues, p.data[0].fixedValues);
        QCOMPARE(q.data[0].trueValues, p.data[0].trueValues);
        QCOMPARE(q.preprocessing, p.preprocessing);
        QVERIFY(q.settings.method == p.settings.method);
        QVERIFY(q.settings.integrator.method == p.settings.integrator.method);
        QVERIFY(q.settings.integrator.methodChosen);
        QCOMPARE(q.settings.integrator.relativeTolerance, 1e-7);
        QCOMPARE(q.settings.integrator.absoluteTolerance, 1e-9);
        QCOMPARE(q.settings.integrator.maxStep, 0.05);
        QCOMPARE_EQ(q.settings.integrator.maxSteps, std::size_t{5000});
        QCOMPARE_EQ(q.settings.maxIterations, std::size_t{42});
        QCOMPARE(q.settings.costTolerance, 1e-9);
        QCOMPARE(q.settings.stepTolerance, 1e-8);
        QCOMPARE(q.settings.gradientTolerance, 1e-7);
        QCOMPARE_EQ(q.settings.shootingIntervals, std::size_t{7});
        QCOMPARE(q.settings.steepestDescentGain, 0.035);
        QVERIFY(q.settings.sensitivity == estimate::SensitivityMethod::Structural);
        QCOMPARE(written["settings"]["sensitivity"].get<std::string>(), std::string("structural"));
        QCOMPARE(q.settings.outputWeights, p.settings.outputWeights);
        QCOMPARE_EQ(q.settings.priors.size(), std::size_t{1});
        QCOMPARE(q.settings.priors.at("c").mean, 0.2);
        QCOMPARE(q.settings.priors.at("c").sd, 0.05);
        QCOMPARE(q.parameterValues, p.parameterValues);
        QVERIFY(q.lastResult);
        QCOMPARE(*q.lastResult, *p.lastResult);
        QVERIFY(q.optimalEstimation);
        QCOMPARE(q.optimalEstimation->stateWeights, p.optimalEstimation->stateWeights);
        QCOMPARE(q.optimalEstimation->measurementWeights, p.optimalEstimation->measurementWeights);
        QCOMPARE(q.optimalEstimation->initialPrior, p.optimalEstimation->initialPrior);
        QCOMPARE_EQ(q.optimalEstimation->shootingPoints, std::size_t{51});
        QCOMPARE_EQ(q.optimalEstimation->stages.size(), std::size_t{3});
        QVERIFY(q.optimalEstimation->stages[0].integrator.method == integrate::IntegrationMethod::CrankNicolson);
        QCOMPARE_EQ(q.optimalEstimation->stages[0].stepsPerInterval, std::size_t{4});
        QVERIFY(q.optimalEstimation->stages[1].integrator.method == integrate::IntegrationMethod::Rosenbrock4);
        QCOMPARE(q.optimalEstimation->stages[1].integrator.relativeTolerance, 1e-7);
        QCOMPARE(q.optimalEstimation->stages[1].newtonTolerance, 1e-4);
        QVERIFY(q.optimalEstimation->stages[1].previousJacobians);
        QVERIFY(!q.optimalEstimation->stages[2].previousJacobians);
        QCOMPARE(q.optimalEstimation->stages[2].integrator.absoluteTolerance, 1e-13);
        QCOMPARE(q.optimalEstimation->guessExpressions, p.optimalEstimation->guessExpressions);
        // The result to start from is stored relative to the project and read back where it is.
        QCOMPARE(written["optimal_estimation"]["guess_from"].get<std::string>(), std::string("runs/previous.json"));
        QCOMPARE(q.optimalEstimation->guessFrom, p.optimalEstimation->guessFrom);
        QVERIFY(q.lastOptimalResult);
        QCOMPARE(*q.lastOptimalResult, *p.lastOptimalResult);
        // A fixed-step stage writes its steps, an adaptive one its tolerances.
        const json& stages = written["optimal_estimation"]["stages"];
        QVERIFY(stages[0].contains("steps_per_interval") && !stages[0]["integrator"].contains("rtol"));
        QVERIFY(!stages[1].contains("steps_per_interval") && stages[1]["integrator"].contains("rtol"));

        // Saved again unchanged: the same bytes.
        const fs::path again = tmp.path() / "again.sysid";
        project::saveProject(q, again.string());
        QCOMPARE(slurp(again), slurp(file));

        // Saved elsewhere: the data path is rewritten relative to the new place.
        fs::create_directories(tmp.path() / "elsewhere/deeper");
        const fs::path moved = tmp.path() / "elsewhere/deeper/moved.sysid";
        project::saveProject(q, moved.string());
        QCOMPARE(json::parse(slurp(moved))["data"][0]["path"].get<std::string>(), std::string("../../data/run1.csv"));
        const project::Project r = project::loadProject(moved.string());
        QVERIFY(fs::equivalent(r.data[0].path, p.data[0].path));
    }

    // A file's format (decimal comma, a title above the header, a units row) is stored with the data set,
    // written only where it differs from the default, and read back by the fit job.
    // Nesting deeper than any project has is refused when the file is read, naming the key,
    // rather than crashing whatever recurses over it later (copy, save, autosave, messages).
    void deepNestingIsRefusedWithTheKey()
    {
        TempDir dir;
        writeData(dir.path());
        for (const std::size_t depth : {std::size_t{200}, std::size_t{100000}}) {
            json j = minimalProject();
            std::string text = j.dump();
            text.pop_back();
            text += ", \"last_result\": {\"x\": " + std::string(depth, '[') + std::string(depth, ']') + "}}";
            std::string key;
            const std::string error = loadError(dir.path(), text, &key);
            QVERIFY2(contains(error, "nested deeper than"), error.c_str());
            QVERIFY2(key.starts_with("last_result.x[0][0]"), key.c_str());
            QVERIFY2(error.size() < 400, error.c_str());
        }
        // Within the bound it reads (the depth of a real project is a few levels).
        json j = minimalProject();
        json deep = 1;
        for (int i = 0; i < 50; ++i)
            deep = json::array({deep});
        j["preprocessing"] = json::object();
        QCOMPARE(loadError(dir.path(), j.dump()), std::string("(no error)"));
    }

    // A number beyond double's range names the file, the key, the line and the column, not
    // nlohmann's "[json.exception.out_of_range.406]".
    void numberBeyondDoubleIsNamed()
    {
        TempDir dir;
        writeData(dir.path());
        std::string key;
        const std::string error = loadError(
            dir.path(), "{\"version\": 1,\n \"parameters\": {\"c\": 1e400}, \"model\": {\"text\": \"\"}}", &key);
        QVERIFY2(contains(error, "the number 1e400 is beyond the range of a double"), error.c_str());
        QVERIFY2(contains(error, ":2:"), error.c_str());
        QVERIFY2(!contains(error, "json.exception"), error.c_str());
        QCOMPARE(key, std::string("parameters.c"));
    }

    // A project file or a data file that is a folder, a device or a FIFO is named for what it is.
    void inputsThatAreNotRegularFiles()
    {
        TempDir dir;
        writeData(dir.path());
        QVERIFY(::mkfifo((dir.path() / "pipe.sysid").c_str(), 0600) == 0);
        for (const std::string& path :
             {(dir.path() / "pipe.sysid").string(), std::string("/dev/zero"), (dir.path() / "data").string()}) {
            try {
                project::loadProject(path);
                QFAIL("read something that is not a project file");
            } catch (const project::ProjectError& e) {
                QVERIFY2(contains(e.message, "not a project file"), e.what());
                QVERIFY2(!contains(e.message, "not found"), e.what());
            }
        }
        json j = minimalProject();
        j["data"][0]["path"] = "data";
        std::string error = loadError(dir.path(), j.dump());
        QVERIFY2(contains(error, "data[0].path: data file 'data' is a folder, not a CSV file"), error.c_str());
        j["data"][0]["path"] = "/dev/zero";
        error = loadError(dir.path(), j.dump());
        QVERIFY2(contains(error, "is a device, not a CSV file"), error.c_str());
        QVERIFY2(!contains(error, "not found"), error.c_str());
    }

    void dataFormatRoundTrip()
    {
        TempDir tmp;
        writeData(tmp.path());
        write(tmp.path() / "data/bench.csv", "Bench 3\nt;x\ns;m\n0;1\n0,1;0,99\n0,2;0,98\n");
        project::Project p;
        p.modelText = "param c = 0.1\nx'' = -c*x' - x\nx(0) = 1, 0\noutput x\n";
        project::Project::DataSet set;
        set.path = (tmp.path() / "data/bench.csv").string();
        set.format.separator = ';';
        set.format.decimalPoint = ',';
        set.format.headerLine = 2;
        set.format.skipRows = 1;
        p.data.push_back(set);
        project::Project::DataSet plain;
        plain.path = (tmp.path() / "data/run1.csv").string();
        p.data.push_back(plain);
        const fs::path file = tmp.path() / "bench.sysid";
        project::saveProject(p, file.string());
        const json written = json::parse(slurp(file));
        QCOMPARE(written["data"][0]["separator"].get<std::string>(), std::string(";"));
        QCOMPARE(written["data"][0]["decimal_point"].get<std::string>(), std::string(","));
        QCOMPARE(written["data"][0]["header_line"].get<int>(), 2);
        QCOMPARE(written["data"][0]["skip_rows"].get<int>(), 1);
        for (const char* key : {"separator", "decimal_point", "header_line", "skip_rows"})
            QVERIFY2(!written["data"][1].contains(key), key);

        const project::Project q = project::loadProject(file.string());
        QCOMPARE(q.data[0].format.separator, ';');
        QCOMPARE(q.data[0].format.decimalPoint, ',');
        QCOMPARE(q.data[0].format.headerLine, 2);
        QCOMPARE(q.data[0].format.skipRows, 1);
        QCOMPARE(q.data[1].format.separator, char(0));
        QCOMPARE(q.data[1].format.skipRows, 0);
        const job::FitJob fit = project::makeFitJob(q);
        QCOMPARE(fit.experiments[0].table.column("x"), (std::vector<double>{1, 0.99, 0.98}));
        QCOMPARE(fit.experiments[0].table.time(), (std::vector<double>{0, 0.1, 0.2}));
    }

    void dataSetRoleAndInclusionRoundTrip()
    {
        TempDir tmp;
        project::Project p = threeRecords(tmp.path());
        p.data[1].included = false;
        p.data[2].role = project::DataRole::Validation;
        p.data[0].trueValues = {{"c", 0.1}};  // the others are measured: no true values
        const fs::path file = tmp.path() / "roles.sysid";
        project::saveProject(p, file.string());
        const json written = json::parse(slurp(file));
        // The defaults are not written: older projects and plain data sets stay as they were.
        QVERIFY(!written["data"][0].contains("included"));
        QVERIFY(!written["data"][0].contains("role"));
        QCOMPARE(written["data"][1]["included"].get<bool>(), false);
        QCOMPARE(written["data"][2]["role"].get<std::string>(), std::string("validation"));

        const project::Project q = project::loadProject(file.string());
        QCOMPARE(q.data.size(), std::size_t(3));
        QVERIFY(q.data[0].included);
        QVERIFY(q.data[0].role == project::DataRole::Estimation);
        QVERIFY(!q.data[1].included);
        QVERIFY(q.data[1].role == project::DataRole::Estimation);
        QVERIFY(q.data[2].included);
        QVERIFY(q.data[2].role == project::DataRole::Validation);
        QCOMPARE(project::estimationDataSets(q), (std::vector<std::size_t>{0}));
        // The estimate is compared with the values of the data it was fitted to.
        QCOMPARE(project::trueValues(q), (std::map<std::string, double>{{"c", 0.1}}));
    }

    void fitUsesOnlyIncludedEstimationDataSets()
    {
        TempDir tmp;
        project::Project p = threeRecords(tmp.path());
        QCOMPARE(project::makeFitJob(p).experiments.size(), std::size_t(3));

        p.data[0].included = false;
        p.data[2].role = project::DataRole::Validation;
        const job::FitJob fit = project::makeFitJob(p);
        QCOMPARE(fit.experiments.size(), std::size_t(1));
        QCOMPARE(fit.experiments[0].name, std::string("run2.csv"));
        QCOMPARE(fit.experiments[0].table.column("x"), (std::vector<double>{2, 1.9}));

        // Nothing left to fit: refused with a message saying why, not fitted to nothing.
        p.data[1].role = project::DataRole::Validation;
        try {
            (void)project::makeFitJob(p);
            QFAIL("a project whose data sets are all set aside was fitted");
        } catch (const job::JobError& e) {
            QVERIFY(e.kind() == job::JobError::Kind::Data);
            QVERIFY2(contains(e.what(), "no data set to fit"), e.what());
            QVERIFY2(contains(e.what(), "excluded or kept for validation"), e.what());
        }
    }

    void periodicSettingsRoundTrip()
    {
        TempDir tmp;
        writeData(tmp.path());
        project::Project p;
        p.modelText = "param c = 0.1\nparam w = 1 fixed\nx'' = -c*x' - x + cos(w*t)\nx(0) = 0, 0\noutput x\n";
        project::Project::DataSet set;
        set.path = (tmp.path() / "data/run1.csv").string();
        set.fixedValues = {{"w", 1.5}};
        p.data.push_back(set);
        p.settings.method = estimate::EstimationMethod::PeriodicResponse;
        p.settings.periodic.period = 3.5;
        p.settings.periodic.frequencyParameter = "w";
        p.settings.periodic.periods = 2;
        p.settings.periodic.solver = discretise::PeriodicSolver::Discretisation;
        p.settings.periodic.intervals = 4;
        p.settings.periodic.nodes = 80;
        p.settings.periodic.scheme = discretise::PeriodicScheme::CentralDifference;
        p.settings.periodic.settlePeriods = 7;
        const fs::path file = tmp.path() / "periodic.sysid";
        project::saveProject(p, file.string());
        QCOMPARE(json::parse(slurp(file))["method"].get<std::string>(), std::string("periodic-response"));
        const project::Project q = project::loadProject(file.string());
        QVERIFY(q.settings.method == estimate::EstimationMethod::PeriodicResponse);
        QCOMPARE(q.settings.periodic.period, 3.5);
        QCOMPARE(q.settings.periodic.frequencyParameter, std::string("w"));
        QCOMPARE_EQ(q.settings.periodic.periods, std::size_t{2});
        QVERIFY(q.settings.periodic.solver == discretise::PeriodicSolver::Discretisation);
        QCOMPARE_EQ(q.settings.periodic.intervals, std::size_t{4});
        QCOMPARE_EQ(q.settings.periodic.nodes, std::size_t{80});
        QVERIFY(q.settings.periodic.scheme == discretise::PeriodicScheme::CentralDifference);
        QCOMPARE_EQ(q.settings.periodic.settlePeriods, std::size_t{7});
    }

    void equationErrorSettingsRoundTrip()
    {
        TempDir tmp;
        writeData(tmp.path());
        project::Project p;
        p.modelText = "param c = 0.1\nx'' = -c*x' - x\nx(0) = 1, 0\noutput x\n";
        project::Project::DataSet set;
        set.path = (tmp.path() / "data/run1.csv").string();
        p.data.push_back(set);
        p.settings.method = estimate::EstimationMethod::SingleStep;
        p.settings.equationError.oneStep = estimate::EquationErrorFormula::RungeKutta4;
        p.settings.equationError.multistep = estimate::EquationErrorFormula::Simpson;
        p.settings.equationError.stateWeights = {{"x", 0.25}};
        p.settings.equationError.simulateFit = false;
        const fs::path file = tmp.path() / "ee.sysid";
        project::saveProject(p, file.string());
        QCOMPARE(json::parse(slurp(file))["method"].get<std::string>(), std::string("single-step"));
        const project::Project q = project::loadProject(file.string());
        QVERIFY(q.settings.method == estimate::EstimationMethod::SingleStep);
        QVERIFY(q.settings.equationError.oneStep == estimate::EquationErrorFormula::RungeKutta4);
        QVERIFY(q.settings.equationError.multistep == estimate::EquationErrorFormula::Simpson);
        QCOMPARE(q.settings.equationError.stateWeights.at("x"), 0.25);
        QVERIFY(!q.settings.equationError.simulateFit);
    }

    void modelTextMayBeOneString()
    {
        TempDir tmp;
        writeData(tmp.path());
        json j = minimalProject();
        j["model"]["text"] = "param c = 0.1\nx'' = -c*x' - x\nx(0) = 1, 0\noutput x\n";
        write(tmp.path() / "p.sysid", j.dump());
        const project::Project p = project::loadProject((tmp.path() / "p.sysid").string());
        QCOMPARE(p.modelText, j["model"]["text"].get<std::string>());
        QVERIFY(p.settings.method == estimate::EstimationMethod::OutputError);  // defaults when absent
        QCOMPARE_EQ(p.settings.maxIterations, estimate::FitSettings{}.maxIterations);
    }

    void integratorNobodyChoseStaysAbsent()
    {
        // Issue 7: without settings.integrator.method the model decides (sparse-implicit for fields),
        // and saving must not write the method it ran with as if the user had chosen it.
        TempDir tmp;
        writeData(tmp.path());
        json j = minimalProject();
        j["model"]["text"] = "field s on x in [0, 0.8] nodes 3\nparam alpha = 0.2\ns_t = alpha * s_xx\n"
                             "s(0, t) = 0 ; s(0.8, t) = 0\ns(x, 0) = 1\noutput s(0.4)\n";
        j["settings"] = {{"integrator", {{"rtol", 1e-7}}}};
        write(tmp.path() / "p.sysid", j.dump());
        project::Project p = project::loadProject((tmp.path() / "p.sysid").string());
        QVERIFY(!p.settings.integrator.methodChosen);
        QCOMPARE(p.settings.integrator.relativeTolerance, 1e-7);
        QVERIFY(project::makeFitJob(p).settings.integrator.methodChosen == false);

        const fs::path again = tmp.path() / "again.sysid";
        p.settings.integrator.method = integrate::IntegrationMethod::SparseImplicit;  // as a front end resolved it
        project::saveProject(p, again.string());
        const json unchosen = json::parse(slurp(again));
        QVERIFY(unchosen["settings"]["integrator"].is_object());
        QVERIFY(!unchosen["settings"]["integrator"].contains("method"));
        QCOMPARE(unchosen["settings"]["integrator"]["rtol"].get<double>(), 1e-7);

        // A choice, even of dopri5, is written and read back as a choice.
        p.settings.integrator.method = integrate::IntegrationMethod::Dopri5;
        p.settings.integrator.methodChosen = true;
        project::saveProject(p, again.string());
        QCOMPARE(json::parse(slurp(again))["settings"]["integrator"]["method"].get<std::string>(),
                 std::string("dopri5"));
        const project::Project q = project::loadProject(again.string());
        QVERIFY(q.settings.integrator.methodChosen);
        QVERIFY(q.settings.integrator.method == integrate::IntegrationMethod::Dopri5);
    }

    void examplesLoad_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("rows");
        QTest::addColumn<QString>("parameter");
        QTest::addColumn<double>("start");
        QTest::newRow("sdof_cubic") << "sdof_cubic.sysid" << 335 << "gamma" << 0.35;
        QTest::newRow("mass_spring_damper") << "mass_spring_damper.sysid" << 1001 << "m" << 10.0;
        QTest::newRow("two_dof_cubic") << "two_dof_cubic.sysid" << 335 << "Omega1sq" << 20.0;
        QTest::newRow("pendulum_natural") << "pendulum_natural.sysid" << 201 << "l" << 1.3;
    }

    void examplesLoad()
    {
        QFETCH(QString, file);
        QFETCH(int, rows);
        QFETCH(QString, parameter);
        QFETCH(double, start);
        const project::Project p = project::loadProject(kExamples + file.toStdString());
        QCOMPARE_EQ(p.data.size(), std::size_t{1});
        QCOMPARE(p.parameterValues.at(parameter.toStdString()), start);
        const job::FitJob fit = project::makeFitJob(p);
        QCOMPARE_EQ(fit.experiments.size(), std::size_t{1});
        QCOMPARE_EQ(fit.experiments[0].table.rowCount(), static_cast<std::size_t>(rows));
        QCOMPARE(fit.modelSource, p.modelSource);
    }

    void loadErrors_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("message");  // the whole what() after "FILE"

        const auto with = [](const std::function<void(json&)>& change) {
            json j = minimalProject();
            change(j);
            return QString::fromStdString(j.dump(2));
        };
        QTest::newRow("not JSON")
            << "{\n  \"version\": 1,\n  \"model\": }\n"
            << ""
            << ":3:12: not a JSON project file: syntax error while parsing value - unexpected '}'; "
               "expected '[', '{', or a literal";
        QTest::newRow("empty file") << ""
                                    << ""
                                    << ":1:1: not a JSON project file";
        QTest::newRow("not an object") << "[1, 2]"
                                       << ""
                                       << ": expected an object, got [1,2] (array)";
        QTest::newRow("version missing") << with([](json& j) { j.erase("version"); }) << "version"
                                         << ": version: missing";
        QTest::newRow("version newer")
            << with([](json& j) { j["version"] = 2; }) << "version"
            << ": version: the project has version 2, but this sysid reads versions up to 1; "
               "it was written by a newer sysid";
        QTest::newRow("version wrong type") << with([](json& j) { j["version"] = "1"; }) << "version"
                                            << ": version: expected a whole number >= 1, got \"1\" (string)";
        QTest::newRow("model missing") << with([](json& j) { j.erase("model"); }) << "model"
                                       << ": model: missing";
        QTest::newRow("model text missing") << with([](json& j) { j["model"].erase("text"); }) << "model.text"
                                            << ": model.text: missing";
        QTest::newRow("model text empty") << with([](json& j) { j["model"]["text"] = json::array(); }) << "model.text"
                                          << ": model.text: the model text is empty";
        QTest::newRow("model line wrong type") << with([](json& j) { j["model"]["text"][1] = 5; }) << "model.text[1]"
                                               << ": model.text[1]: expected a string, got 5 (number)";
        QTest::newRow("unknown method") << with([](json& j) { j["method"] = "newton"; }) << "method"
                                        << ": method: unknown method 'newton' (known: output-error, multiple-shooting, "
                                           "bayes, periodic-response, single-step, multistep, steepest-descent, ml)";
        QTest::newRow("negative gain") << with([](json& j) { j["settings"]["steepest_descent_gain"] = -0.02; })
                                       << "settings.steepest_descent_gain"
                                       << ": settings.steepest_descent_gain: expected a number > 0, got -0.02";
        QTest::newRow("unknown sensitivity method")
            << with([](json& j) { j["settings"]["sensitivity"] = "meissinger"; }) << "settings.sensitivity"
            << ": settings.sensitivity: unknown sensitivity method 'meissinger' "
               "(known: forward, structural)";
        QTest::newRow("unknown periodic solver")
            << with([](json& j) {
                   j["settings"]["periodic"] = {{"solver", "euler"}};
               })
            << "settings.periodic.solver"
            << ": settings.periodic.solver: unknown periodic solver 'euler' (known: "
               "shooting, discretisation)";
        QTest::newRow("negative period")
            << with([](json& j) {
                   j["settings"]["periodic"] = {{"period", -2}};
               })
            << "settings.periodic.period"
            << ": settings.periodic.period: expected a period > 0 (or 0: from the frequency parameter), got -2";
        QTest::newRow("zero periods") << with([](json& j) {
            j["settings"]["periodic"] = {{"periods", 0}};
        }) << "settings.periodic.periods"
                                      << ": settings.periodic.periods: expected a whole number >= 1, got 0";
        QTest::newRow("unknown scheme")
            << with([](json& j) {
                   j["settings"]["periodic"] = {{"scheme", "rk4"}};
               })
            << "settings.periodic.scheme"
            << ": settings.periodic.scheme: unknown scheme 'rk4' (known: central-difference, "
               "hermite-simpson)";
        QTest::newRow("method wrong type") << with([](json& j) { j["method"] = 3; }) << "method"
                                           << ": method: expected a string, got 3 (number)";
        QTest::newRow("unknown integrator")
            << with([](json& j) { j["settings"]["integrator"]["method"] = "rk45"; }) << "settings.integrator.method"
            << ": settings.integrator.method: unknown integrator 'rk45' (known: dopri5, "
               "dop853, rosenbrock4, rk4, euler, sparse-implicit, implicit-euler, crank-nicolson)";
        QTest::newRow("iterations wrong type")
            << with([](json& j) { j["settings"]["max_iterations"] = "many"; }) << "settings.max_iterations"
            << ": settings.max_iterations: expected a whole number >= 0, got \"many\" (string)";
        QTest::newRow("negative iterations")
            << with([](json& j) { j["settings"]["max_iterations"] = -1; }) << "settings.max_iterations"
            << ": settings.max_iterations: expected a whole number >= 0, got -1 (number)";
        QTest::newRow("rtol not positive")
            << with([](json& j) { j["settings"]["integrator"]["rtol"] = 0; }) << "settings.integrator.rtol"
            << ": settings.integrator.rtol: expected a number > 0, got 0";
        QTest::newRow("prior without sd") << with([](json& j) {
            j["settings"]["priors"]["c"] = {{"mean", 1}};
        }) << "settings.priors.c"
                                          << ": settings.priors.c: a prior needs both \"mean\" and \"sd\"";
        QTest::newRow("weight wrong type")
            << with([](json& j) { j["settings"]["output_weights"]["x"] = "high"; }) << "settings.output_weights.x"
            << ": settings.output_weights.x: expected a number, got \"high\" (string)";
        QTest::newRow("unknown key") << with([](json& j) { j["settings"]["max_iteration"] = 5; })
                                     << "settings.max_iteration"
                                     << ": settings.max_iteration: unknown key (known here: ";
        QTest::newRow("data not an array") << with([](json& j) { j["data"] = "run1.csv"; }) << "data"
                                           << ": data: expected an array of data sets, got \"run1.csv\" (string)";
        QTest::newRow("data path missing") << with([](json& j) { j["data"][0].erase("path"); }) << "data[0].path"
                                           << ": data[0].path: missing";
        QTest::newRow("data file not found") << with([](json& j) {
            j["data"].push_back({{"path", "data/run2.csv"}});
        }) << "data[1].path"
                                             << ": data[1].path: data file 'data/run2.csv' not found (looked for ";
        QTest::newRow("mapping wrong type") << with([](json& j) {
            j["data"][0]["mapping"] = {{"x", 1}};
        }) << "data[0].mapping.x"
                                            << ": data[0].mapping.x: expected a string, got 1 (number)";
        QTest::newRow("fixed value wrong type") << with([](json& j) {
            j["data"][0]["fixed_values"] = {{"k", true}};
        }) << "data[0].fixed_values.k"
                                                << ": data[0].fixed_values.k: expected a number, got true (boolean)";
        QTest::newRow("true values not an object")
            << with([](json& j) { j["data"][0]["true_values"] = 3; }) << "data[0].true_values"
            << ": data[0].true_values: expected an object {\"PARAMETER\": value}, got 3";
        QTest::newRow("starting value wrong type") << with([](json& j) {
            j["parameters"] = {{"c", "0.2"}};
        }) << "parameters.c"
                                                   << ": parameters.c: expected a number, got \"0.2\" (string)";
        QTest::newRow("bad preprocessing") << with([](json& j) {
            j["preprocessing"] = {{"decimation", 0}};
        }) << "preprocessing"
                                           << ": preprocessing: ";
        QTest::newRow("unknown preprocessing") << with([](json& j) {
            j["preprocessing"] = {{"smooth", true}};
        }) << "preprocessing"
                                               << ": preprocessing: unknown member 'smooth'";
        QTest::newRow("optimal estimation not an object")
            << with([](json& j) { j["optimal_estimation"] = 3; }) << "optimal_estimation"
            << ": optimal_estimation: expected an object, got 3 (number)";
        QTest::newRow("optimal estimation unknown key") << with([](json& j) {
            j["optimal_estimation"] = {{"points", 5}};
        }) << "optimal_estimation.points"
                                                        << ": optimal_estimation.points: unknown key (known here: "
                                                           "state_weights, measurement_weights, shooting_points, "
                                                           "max_iterations, guess_from, initial_prior, initial_guess, "
                                                           "stages, first_stage)";
        QTest::newRow("first stage adaptive")
            << with([](json& j) {
                   j["optimal_estimation"] = {{"first_stage", {{"method", "dopri5"}}}};
               })
            << "optimal_estimation.first_stage.method"
            << ": optimal_estimation.first_stage.method: expected one of \"rk4\", \"euler\", \"implicit-euler\", "
               "\"crank-nicolson\", got \"dopri5\"";
        QTest::newRow("first stage no steps")
            << with([](json& j) {
                   j["optimal_estimation"] = {{"first_stage", {{"steps_per_interval", 0}}}};
               })
            << "optimal_estimation.first_stage.steps_per_interval"
            << ": optimal_estimation.first_stage.steps_per_interval: expected a whole number >= 1, got 0";
        QTest::newRow("state weight zero") << with([](json& j) {
            j["optimal_estimation"] = {{"state_weights", {{"x", 0}}}};
        }) << "optimal_estimation.state_weights.x"
                                           << ": optimal_estimation.state_weights.x: expected a number > 0, got 0";
        QTest::newRow("measurement weight negative")
            << with([](json& j) {
                   j["optimal_estimation"] = {{"measurement_weights", {{"x", -1}}}};
               })
            << "optimal_estimation.measurement_weights.x"
            << ": optimal_estimation.measurement_weights.x: expected a number >= 0, got -1";
        QTest::newRow("measurement weight wrong type")
            << with([](json& j) {
                   j["optimal_estimation"] = {{"measurement_weights", {{"x", "big"}}}};
               })
            << "optimal_estimation.measurement_weights.x"
            << ": optimal_estimation.measurement_weights.x: expected a number, got \"big\"";
        QTest::newRow("prior without weight") << with([](json& j) {
            j["optimal_estimation"] = {{"initial_prior", {{"x", {{"value", 1}}}}}};
        }) << "optimal_estimation.initial_prior.x.weight"
                                              << ": optimal_estimation.initial_prior.x.weight: missing";
        QTest::newRow("one-step formula as multistep") << with([](json& j) {
            j["settings"] = {{"equation_error", {{"multistep", "heun"}}}};
        }) << "settings.equation_error.multistep"
                                                       << ": settings.equation_error.multistep: unknown formula 'heun' "
                                                          "(known: trapezoid, simpson, newton-cotes-6)";
        QTest::newRow("negative state weight")
            << with([](json& j) {
                   j["settings"] = {{"equation_error", {{"state_weights", {{"x", -1}}}}}};
               })
            << "settings.equation_error.state_weights.x"
            << ": settings.equation_error.state_weights.x: expected a number > 0, got -1";
        QTest::newRow("unknown separator")
            << with([](json& j) { j["data"][0]["separator"] = "|"; }) << "data[0].separator"
            << ": data[0].separator: expected one of \",\", \";\", \"\\t\", got \"|\"";
        QTest::newRow("negative rows to skip")
            << with([](json& j) { j["data"][0]["skip_rows"] = -1; }) << "data[0].skip_rows"
            << ": data[0].skip_rows: expected a whole number from 0, got -1";
        QTest::newRow("header line zero")
            << with([](json& j) { j["data"][0]["header_line"] = 0; }) << "data[0].header_line"
            << ": data[0].header_line: expected a whole number from 1, got 0";
        QTest::newRow("unknown data set role")
            << with([](json& j) { j["data"][0]["role"] = "training"; }) << "data[0].role"
            << ": data[0].role: unknown data set role 'training' (known: estimation, validation)";
        QTest::newRow("included not a boolean")
            << with([](json& j) { j["data"][0]["included"] = "yes"; }) << "data[0].included"
            << ": data[0].included: expected true or false, got \"yes\"";
        QTest::newRow("one shooting point")
            << with([](json& j) {
                   j["optimal_estimation"] = {{"shooting_points", 1}};
               })
            << "optimal_estimation.shooting_points"
            << ": optimal_estimation.shooting_points: expected a whole number >= 2, got 1";
    }

    void loadErrors()
    {
        QFETCH(QString, text);
        QFETCH(QString, key);
        QFETCH(QString, message);
        TempDir tmp;
        writeData(tmp.path());
        const fs::path file = tmp.path() / "p.sysid";
        write(file, text.toStdString());
        const auto before = snapshot(tmp.path());
        std::string gotKey = "(none)";
        const std::string what = loadError(tmp.path(), text.toStdString(), &gotKey);
        const std::string expected = file.string() + message.toStdString();
        QVERIFY2(what.compare(0, expected.size(), expected) == 0,
                 ("got:      " + what + "\nexpected: " + expected).c_str());
        QCOMPARE(gotKey, key.toStdString());
        QCOMPARE(snapshot(tmp.path()), before);  // loading never writes
    }

    void missingAndUnreadableFiles()
    {
        TempDir tmp;
        const std::string missing = (tmp.path() / "none.sysid").string();
        QVERIFY_THROWS_EXCEPTION(project::ProjectError, project::loadProject(missing));
        try {
            project::loadProject(tmp.path().string());
            QFAIL("a directory loaded");
        } catch (const project::ProjectError& e) {
            QVERIFY2(contains(e.what(), "is a folder, not a project file"), e.what());
        }
        QVERIFY(fs::is_empty(tmp.path()));
    }

    void saveIsAtomicWhenTheTargetIsADirectory()
    {
        TempDir tmp;
        writeData(tmp.path());
        write(tmp.path() / "p.sysid", minimalProject().dump());
        const project::Project p = project::loadProject((tmp.path() / "p.sysid").string());
        const fs::path target = tmp.path() / "target.sysid";
        fs::create_directories(target / "inside");
        write(target / "inside/keep.txt", "keep");
        const auto before = snapshot(tmp.path());
        try {
            project::saveProject(p, target.string());
            QFAIL("saved over a directory");
        } catch (const project::ProjectError& e) {
            QVERIFY2(contains(e.what(), target.string()), e.what());
        }
        QCOMPARE(snapshot(tmp.path()), before);  // the directory is intact and no .tmp is left
    }

    // Whatever lies at the name an older writer used for its temporary (PATH.tmp, here a folder)
    // neither stops a save nor is touched by it: the temporary's name is new each time.
    void saveIgnoresTheOldTemporaryName()
    {
        TempDir tmp;
        writeData(tmp.path());
        const fs::path file = tmp.path() / "p.sysid";
        write(file, minimalProject().dump(2));
        project::Project p = project::loadProject(file.string());
        p.settings.maxIterations = 7;
        fs::create_directories(tmp.path() / "p.sysid.tmp");
        project::saveProject(p, file.string());
        QCOMPARE(project::loadProject(file.string()).settings.maxIterations, std::size_t{7});
        QVERIFY(fs::is_directory(tmp.path() / "p.sysid.tmp"));
        QVERIFY(fs::is_empty(tmp.path() / "p.sysid.tmp"));
    }

    void saveLeavesTheOldFileInAReadOnlyDirectory()
    {
        TempDir tmp;
        writeData(tmp.path());
        const fs::path dir = tmp.path() / "ro";
        fs::create_directories(dir);
        const fs::path file = dir / "p.sysid";
        json j = minimalProject();
        j["data"][0]["path"] = "../data/run1.csv";
        write(file, j.dump(2));
        project::Project p = project::loadProject(file.string());
        p.settings.maxIterations = 7;  // a different file would be written
        fs::permissions(dir, fs::perms::owner_read | fs::perms::owner_exec);
        if (::access(dir.c_str(), W_OK) == 0) {
            fs::permissions(dir, fs::perms::owner_all);
            QSKIP("the directory stays writable (running as root); covered by the two tests above");
        }
        const auto before = snapshot(tmp.path());
        try {
            project::saveProject(p, file.string());
            fs::permissions(dir, fs::perms::owner_all);
            QFAIL("saved into a read-only directory");
        } catch (const project::ProjectError& e) {
            QVERIFY2(contains(e.what(), file.string()), e.what());
        }
        QCOMPARE(snapshot(tmp.path()), before);
        fs::permissions(dir, fs::perms::owner_all);
    }

    void damagedFileChangesNothing()
    {
        TempDir tmp;
        writeData(tmp.path());
        const fs::path file = tmp.path() / "p.sysid";
        std::string text = minimalProject().dump(2);
        text.resize(text.size() / 2);  // cut off half-way, as a crash of another program might
        write(file, text);
        const auto before = snapshot(tmp.path());
        try {
            project::loadProject(file.string());
            QFAIL("a damaged file loaded");
        } catch (const project::ProjectError& e) {
            QVERIFY2(contains(e.what(), file.string() + ":"), e.what());
            QVERIFY2(contains(e.what(), "not a JSON project file"), e.what());
            QVERIFY(e.line > 1);
        }
        QCOMPARE(snapshot(tmp.path()), before);
    }

    void writeFileAtomically()
    {
        TempDir tmp;
        const fs::path file = tmp.path() / "r.json";
        project::writeFileAtomically(file.string(), "one");
        project::writeFileAtomically(file.string(), "two");
        QCOMPARE(slurp(file), std::string("two"));
        QVERIFY(!fs::exists(file.string() + ".tmp"));
        QVERIFY_THROWS_EXCEPTION(project::ProjectError,
                                 project::writeFileAtomically((tmp.path() / "no/such/dir/r.json").string(), "x"));
    }

    void resultJson()
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        estimate::FitResult r;
        r.parameters.push_back({"k", 1.0, 2.0, 0.1, 1.8, 2.2, false, "N/m"});
        r.parameters.push_back({"c", 0.5, 0.4, nan, nan, nan, true, {}});
        r.correlation.resize(2, 2);
        r.correlation << 1.0, 0.25, 0.25, 1.0;
        r.cost = 3.5;
        r.outputNames = {"x", "v"};
        r.residualRms = {0.01, nan};
        r.iterations = 2;
        r.termination = core::Termination::convergence(core::TerminationCriterion::StepTolerance, "small step");
        r.history.push_back({0, {1.0, 0.5}, 10.0, 0.0, 0.0});
        r.history.push_back({2, {2.0, 0.4}, 3.5, 0.1, 0.0});
        const json j = project::resultToJson(r);

        std::vector<std::string> keys;
        for (const auto& item : j.items())
            keys.push_back(item.key());
        QCOMPARE(keys,
                 (std::vector<std::string>{"cancelled", "converged", "correlation", "cost", "history", "iterations",
                                           "parameters", "report", "residual_analysis", "residual_rms", "statistics",
                                           "stop_reason", "termination", "unidentifiable_directions"}));
        QCOMPARE(
            j["parameters"]["k"],
            (json{
                {"value", 2.0}, {"std", 0.1}, {"initial", 1.0}, {"lower95", 1.8}, {"upper95", 2.2}, {"unit", "N/m"}}));
        QCOMPARE(j["parameters"]["c"]["unit"].get<std::string>(), std::string());  // none given
        QVERIFY(j["parameters"]["c"]["std"].is_null());
        QCOMPARE(j["parameters"]["c"]["value"].get<double>(), 0.4);
        QCOMPARE(j["cost"].get<double>(), 3.5);
        QCOMPARE(j["iterations"].get<int>(), 2);
        QCOMPARE(j["converged"].get<bool>(), true);
        QCOMPARE(j["cancelled"].get<bool>(), false);
        QCOMPARE(j["stop_reason"].get<std::string>(), std::string("small step"));
        QCOMPARE(j["residual_rms"]["x"].get<double>(), 0.01);
        QVERIFY(j["residual_rms"]["v"].is_null());
        // Rows in the order "parameters" is written (c, k), the matrix is symmetric anyway; check the diagonal layout.
        QCOMPARE(j["correlation"], (json{{1.0, 0.25}, {0.25, 1.0}}));
        QCOMPARE_EQ(j["history"].size(), std::size_t{2});
        QCOMPARE(j["history"][1], (json{{"iteration", 2}, {"cost", 3.5}, {"parameters", {{"k", 2.0}, {"c", 0.4}}}}));
        // Survives dump and parse (NaN would not).
        QCOMPARE(json::parse(j.dump()), j);

        // Known true values add the relative error; a zero truth has none.
        const json withTruth = project::resultToJson(r, {{"k", 2.5}, {"c", 0.0}});
        QCOMPARE(withTruth["parameters"]["k"]["true"].get<double>(), 2.5);
        QCOMPARE(withTruth["parameters"]["k"]["relative_error"].get<double>(), -0.2);
        QVERIFY(withTruth["parameters"]["c"]["relative_error"].is_null());
        QCOMPARE(project::resultFromJson(withTruth).parameters.size(), std::size_t{2});
        // The unit reads back (parameters come back by name: c, k); a result stored without units has none.
        QCOMPARE(project::resultFromJson(j).parameters[1].unit, std::string("N/m"));
        json unitless = j;
        unitless["parameters"]["k"].erase("unit");
        QCOMPARE(project::resultFromJson(unitless).parameters[1].unit, std::string());
    }

    // RESULT.json of `sysid optimal`: every member, columns by name, non-finite numbers as null.
    void optimalResultJson()
    {
        estimate::OptimalEstimationResult r;
        r.parameterNames = {"b", "k"};
        r.parameters = Eigen::Vector2d(0.5, 2.0);
        r.parameterDrift = Eigen::Vector2d(1e-6, std::numeric_limits<double>::quiet_NaN());
        r.times = {0.0, 0.5, 1.0};
        r.stateNames = {"x", "x'"};
        r.states = Eigen::MatrixXd{{1, 0}, {0.9, -0.2}, {0.7, -0.3}};
        r.inputNames = {"u", "x''"};
        r.inputs = Eigen::MatrixXd{{0, -1}, {0.1, -0.5}, {0.2, -0.1}};
        r.residualNames = {"xi:x", "eps:x"};
        r.residuals = Eigen::MatrixXd{{0.01, 0.02}, {0.03, 0.04}, {0.05, 0.06}};
        r.cost = 1.25;
        r.iterations = 7;
        r.residualNorm = 1e-9;
        r.termination = core::Termination::convergence(core::TerminationCriterion::ResidualTolerance, "converged");
        const json j = project::optimalResultToJson(r);
        QCOMPARE(j["parameters"]["b"]["value"].get<double>(), 0.5);
        QCOMPARE(j["parameters"]["b"]["drift"].get<double>(), 1e-6);
        QVERIFY(j["parameters"]["k"]["drift"].is_null());
        QCOMPARE(j["cost"].get<double>(), 1.25);
        QCOMPARE(j["iterations"].get<int>(), 7);
        QVERIFY(j["converged"].get<bool>());
        QCOMPARE(j["message"].get<std::string>(), std::string("converged"));
        QCOMPARE(j["residual_norm"].get<double>(), 1e-9);
        QCOMPARE(j["times"].get<std::vector<double>>(), r.times);
        QCOMPARE(j["states"]["x'"].get<std::vector<double>>(), (std::vector<double>{0, -0.2, -0.3}));
        QCOMPARE(j["inputs"]["x''"].get<std::vector<double>>(), (std::vector<double>{-1, -0.5, -0.1}));
        QCOMPARE(j["residuals"]["eps:x"].get<std::vector<double>>(), (std::vector<double>{0.02, 0.04, 0.06}));
        QCOMPARE_EQ(j["residuals"].size(), std::size_t{2});
    }

    void optimalSettingsJsonRoundTrip()
    {
        estimate::OptimalEstimationSettings s;
        s.stateWeights = {{"s'", 3.0}};
        s.measurementWeights = {{"u", 1e4}, {"eom:s", 0.5}};
        s.initialPrior = {{"m", {1.0, 0.0}}};
        s.shootingPoints = 11;
        const json j = project::optimalSettingsToJson(s);
        QCOMPARE(j["initial_prior"]["m"]["weight"].get<double>(), 0.0);
        const auto t = project::optimalSettingsFromJson(j);
        QCOMPARE(t.stateWeights, s.stateWeights);
        QCOMPARE(t.measurementWeights, s.measurementWeights);
        QCOMPARE(t.initialPrior, s.initialPrior);
        QCOMPARE_EQ(t.shootingPoints, std::size_t{11});
        // Missing members keep the defaults.
        QCOMPARE_EQ(project::optimalSettingsFromJson(json::object()).shootingPoints, std::size_t{101});
    }

    void trueValuesAreThoseAllDataSetsAgreeOn()
    {
        project::Project p;
        QVERIFY(project::trueValues(p).empty());
        p.data.resize(2);
        p.data[0].trueValues = {{"k", 2.0}, {"c", 0.4}, {"m", 1.0}};
        p.data[1].trueValues = {{"k", 2.0}, {"c", 0.5}};
        QCOMPARE(project::trueValues(p), (std::map<std::string, double>{{"k", 2.0}}));
        p.data.push_back({});  // measured data: nothing is known to be true
        QVERIFY(project::trueValues(p).empty());
    }

    void resultJsonCorrelationFollowsTheNameOrder()
    {
        estimate::FitResult r;
        r.parameters.push_back({"z", 0, 0, 0, 0, 0, false, {}});
        r.parameters.push_back({"a", 0, 0, 0, 0, 0, false, {}});
        r.parameters.push_back({"m", 0, 0, 0, 0, 0, false, {}});
        r.correlation.resize(3, 3);
        r.correlation << 1, 0.1, 0.2,  //
            0.1, 1, 0.3,  //
            0.2, 0.3, 1;
        const json j = project::resultToJson(r);
        // Written order a, m, z: corr(a, m) = 0.3, corr(a, z) = 0.1, corr(m, z) = 0.2.
        QCOMPARE(j["correlation"], (json{{1.0, 0.3, 0.1}, {0.3, 1.0, 0.2}, {0.1, 0.2, 1.0}}));
    }

    void resultJsonReadsBack()
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        estimate::FitResult r;
        r.parameters.push_back({"k", 1.0, 2.0, 0.1, 1.8, 2.2, false, {}});
        r.parameters.push_back({"c", 0.5, 0.4, nan, nan, nan, false, {}});
        r.correlation.resize(2, 2);
        r.correlation << 1.0, -0.25, -0.25, 1.0;
        r.cost = 3.5;
        r.outputNames = {"x"};
        r.residualRms = {0.01};
        r.iterations = 2;
        r.termination = core::Termination::convergence(core::TerminationCriterion::StepTolerance, "small step");
        r.history.push_back({0, {1.0, 0.5}, 10.0, 0.0, 0.0});
        const estimate::FitResult back = project::resultFromJson(json::parse(project::resultToJson(r).dump()));
        QCOMPARE(back.parameters.size(), std::size_t(2));
        QCOMPARE(back.parameters[0].name, std::string("c"));  // the file's (name) order
        QCOMPARE(back.parameters[1].value, 2.0);
        QVERIFY(std::isnan(back.parameters[0].sd));
        QCOMPARE(back.correlation(0, 1), -0.25);
        QCOMPARE(back.history[0].parameters, (std::vector<double>{0.5, 1.0}));
        QCOMPARE(back.termination.message, r.termination.message);
        QVERIFY(back.converged());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, project::resultFromJson(json{{"parameters", 3}}));
    }
};

QTEST_APPLESS_MAIN(TestProject)
#include "test_project.moc"
