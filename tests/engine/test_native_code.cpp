// Native model code (eval::NativeCode) against the interpreter it replaces: every evaluation of
// every example model at random points, the sensitivity right-hand side against the one formed
// from the Jacobians, a fit with native code on and off, and the fallback to the interpreter
// when no compiler works.
#include "NativeCodeTestSupport.h"

#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/eval/NativeCode.h"
#include "engine/integrate/InputSignals.h"
#include "engine/integrate/ModelSystem.h"
#include "engine/integrate/SensitivitySystem.h"
#include "engine/job/FitJob.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/SymbolicLock.h"
#include "engine/project/Project.h"
#include "engine/project/ProjectJob.h"

#include <QtTest>

#include <algorithm>
#include <link.h>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

using namespace sysid;
using test::Environment;
using test::interpreted;

namespace {

std::shared_ptr<const eval::CompiledModelSource> compileFile(const std::string& path)
{
    const std::lock_guard lock(model::symbolicMutex());
    return eval::compileModel(model::loadModel(path));
}

// Largest difference relative to max(1, |reference|); both NaN counts as equal.
double difference(const std::vector<double>& a, const std::vector<double>& b)
{
    double worst = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (std::isnan(a[i]) && std::isnan(b[i]))
            continue;
        if (a[i] == b[i])
            continue;
        const double d = std::abs(a[i] - b[i]) / std::max(1.0, std::abs(b[i]));
        worst = std::max(worst, std::isfinite(d) ? d : 1e300);
    }
    return worst;
}

// Every evaluation CompiledModel offers, at the point the model is set to, as one vector.
std::vector<double> everything(const eval::CompiledModel& m)
{
    const auto& s = m.source();
    const std::size_t n = m.stateCount(), np = m.parameterCount(), nu = m.inputCount(), ny = m.outputCount();
    const std::size_t ns = m.switchCount();
    std::vector<double> all;
    auto take = [&](std::size_t size, const std::function<void(double*)>& f) {
        std::vector<double> v(size, -7.0);
        f(v.data());
        all.insert(all.end(), v.begin(), v.end());
    };
    take(n, [&](double* v) { m.rhs(v); });
    take(n * n, [&](double* v) { m.stateJacobian(v); });
    take(n * np, [&](double* v) { m.parameterJacobian(v); });
    take(n * (1 + nu), [&](double* v) { m.timeInputJacobian(v); });
    take(n + n * n, [&](double* v) { m.rhsAndStateJacobian(v, v + n); });
    take(n + n * n + n * np, [&](double* v) { m.rhsAndJacobians(v, v + n, v + n + n * n); });
    const std::size_t nx = s.rhsStateJacobian.entries.size(), npv = s.rhsParamJacobian.entries.size();
    take(n + nx + npv, [&](double* v) { m.rhsAndJacobianValues(v, v + n, v + n + nx); });
    take(ny, [&](double* v) { m.outputs(v); });
    take(ny * n, [&](double* v) { m.outputStateJacobian(v); });
    take(ny * np, [&](double* v) { m.outputParameterJacobian(v); });
    if (s.hasSecondDerivatives) {
        take(s.rhsStateHessian.entries.size(), [&](double* v) { m.stateHessianValues(v); });
        take(s.rhsMixedHessian.entries.size(), [&](double* v) { m.mixedHessianValues(v); });
    }
    take(n, [&](double* v) { m.initialState(v); });
    take(n * np, [&](double* v) { m.initialStateJacobian(v); });
    if (ns > 0) {
        take(ns, [&](double* v) { m.switchingFunctions(v); });
        take(ns * (1 + n + np + 1 + nu),
             [&](double* v) { m.switchingGradients(v, v + ns, v + ns + ns * n, v + ns + ns * (n + np)); });
        take(ns * (1 + n + np + ns), [&](double* v) { m.lieDerivatives(v, v + ns, v + ns + ns * n, v + ns * (1 + n + np)); });
        take(ns + ns * ns, [&](double* v) { m.lieRates(v, v + ns); });
        take(n * ns, [&](double* v) { m.rhsModeJacobian(v); });
    }
    if (m.eventCount() > 0) {
        take(m.eventCount(), [&](double* v) { m.eventConditions(v); });
        for (std::size_t k = 0; k < m.eventCount(); ++k) {
            take(1 + n + np + 1 + nu, [&](double* v) { m.eventCondition(k, v, v + 1, v + 1 + n, v + 1 + n + np); });
            const std::size_t r = s.events[k].states.size();
            take(r * (1 + n + np + 1 + nu),
                 [&](double* v) { m.resetValues(k, v, v + r, v + r + r * n, v + r + r * (n + np)); });
        }
    }
    if (m.invariantCount() > 0) {
        const std::size_t g = m.invariantCount();
        take(g * (1 + n + np + 1 + nu), [&](double* v) { m.invariants(v, v + g, v + g + g * n, v + g + g * (n + np)); });
    }
    return all;
}

// The sensitivity right-hand side formed from the Jacobians, as SensitivitySystem forms it.
void formedSensitivity(const eval::CompiledModel& m, const std::vector<double>& S, const std::vector<int>& column,
                       std::size_t columns, double* dx, double* dS)
{
    const std::size_t n = m.stateCount(), np = m.parameterCount();
    std::vector<double> Jx(n * n), Jp(n * np);
    m.rhsAndJacobians(dx, Jx.data(), Jp.data());
    for (std::size_t c = 0; c < columns; ++c)
        for (std::size_t r = 0; r < n; ++r) {
            double sum = 0.0;
            for (std::size_t k = 0; k < n; ++k)
                sum += Jx[k * n + r] * S[c * n + k];
            dS[c * n + r] = sum;
        }
    for (std::size_t l = 0; l < np; ++l)
        if (column[l] >= 0)
            for (std::size_t r = 0; r < n; ++r)
                dS[static_cast<std::size_t>(column[l]) * n + r] += Jp[l * n + r];
}

}  // namespace

class TestNativeCode : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        // Kept between runs in the build tree, so a rerun loads instead of compiling.
        ::setenv("SYSID_NATIVE_CACHE", SYSID_BINARY_DIR "/native-cache", 1);
        ::unsetenv("SYSID_NATIVE");
        ::unsetenv("SYSID_CC");
        eval::setNativeCodeWaits(true);
    }

    // Every evaluation of every example model, native against interpreted, at random points with
    // random parameters, inputs and (switched form) modes.
    void exampleModelsAgreeWithTheInterpreter()
    {
        std::size_t models = 0, points = 0;
        double worst = 0.0, worstSensitivity = 0.0;
        for (const auto& entry :
             std::filesystem::directory_iterator(std::string(SYSID_SOURCE_DIR) + "/resources/examples")) {
            if (entry.path().extension() != ".model")
                continue;
            const std::string name = entry.path().filename().string();
            const auto source = compileFile(entry.path().string());
            eval::requestNativeCode(source, eval::ModelCode::Native);
            source->native->wait();  // a large model is compiled in the background even when waiting
            QVERIFY2(source->native->settled(), name.c_str());
            QVERIFY2(source->native->functions(), (name + ": " + source->native->failure()).c_str());
            eval::CompiledModel native(source), reference(interpreted(*source));
            QVERIFY(native.native());
            QVERIFY(!reference.native());
            const std::size_t n = native.stateCount(), np = native.parameterCount();
            std::mt19937 random(static_cast<unsigned>(models) + 11);
            std::uniform_real_distribution<double> draw(-1.5, 1.5);
            for (int k = 0; k < 8; ++k) {
                std::vector<double> x(n), p(np), u(native.inputCount()), modes(native.switchCount());
                for (auto* v : {&x, &p, &u})
                    for (auto& e : *v)
                        e = draw(random);
                for (auto& m : modes)
                    m = k % 2 == 0 ? (draw(random) > 0 ? 1.0 : -1.0) : draw(random) / 1.5;
                const double t = 3.0 * draw(random);
                for (auto* m : {&native, &reference}) {
                    m->setParameters(p);
                    m->setPoint(t, x.data(), u.data());
                    if (k >= 4 && !modes.empty())
                        m->holdModes(modes.data());
                    else
                        m->releaseModes();
                }
                const double d = difference(everything(native), everything(reference));
                QVERIFY2(d <= 1e-14, qPrintable(QString("%1: %2").arg(QString::fromStdString(name)).arg(d)));
                worst = std::max(worst, d);

                // Sensitivities: all initial-state columns, then every other parameter.
                std::vector<int> column(np, -1);
                std::size_t columns = n;
                for (std::size_t l = 0; l < np; l += 2)
                    column[l] = static_cast<int>(columns++);
                std::vector<double> S(n * columns);
                for (auto& e : S)
                    e = draw(random);
                std::vector<double> dx(n), dS(n * columns, -7.0), dxRef(n), dSRef(n * columns);
                QVERIFY(native.sensitivityRhs(S.data(), columns, column.data(), true, dx.data(), dS.data()));
                QVERIFY(!reference.sensitivityRhs(S.data(), columns, column.data(), true, dx.data(), dS.data()));
                formedSensitivity(reference, S, column, columns, dxRef.data(), dSRef.data());
                const double ds = std::max(difference(dx, dxRef), difference(dS, dSRef));
                QVERIFY2(ds <= 1e-14, qPrintable(QString("%1 sensitivity: %2").arg(QString::fromStdString(name)).arg(ds)));
                worstSensitivity = std::max(worstSensitivity, ds);

                // The calls at a point given directly (what the integrators make) read t and x from
                // their arguments, not from the evaluator's last point.
                std::vector<double> elsewhere(x);
                for (auto& e : elsewhere)
                    e += 0.25;
                native.setPoint(t + 0.5, elsewhere.data(), u.data());
                std::vector<double> f(n), J(n * n), Jp(n * np), fRef(n), JRef(n * n), JpRef(n * np);
                reference.setPoint(t, x.data(), u.data());
                reference.rhsAndJacobians(fRef.data(), JRef.data(), JpRef.data());
                native.rhsAndJacobians(t, x.data(), f.data(), J.data(), Jp.data());
                double dp = std::max({difference(f, fRef), difference(J, JRef), difference(Jp, JpRef)});
                native.rhs(t, x.data(), f.data());
                native.stateJacobian(t, x.data(), J.data());
                dp = std::max({dp, difference(f, fRef), difference(J, JRef)});
                QVERIFY(native.sensitivityRhs(t, x.data(), S.data(), columns, column.data(), true, dx.data(), dS.data()));
                dp = std::max({dp, difference(dx, dxRef), difference(dS, dSRef)});
                QVERIFY2(dp <= 1e-14, qPrintable(QString("%1 at a point: %2").arg(QString::fromStdString(name)).arg(dp)));
                ++points;
            }
            ++models;
        }
        QVERIFY(models >= 25);
        qInfo("%zu example models at %zu points: largest relative difference %.3g (evaluations), %.3g (sensitivity "
              "right-hand side)",
              models, points, worst, worstSensitivity);
    }

    // SensitivitySystem calls a model's native sensitivity kernel directly (no virtual call), with
    // the inputs' lines of the segment being integrated written in before each call, and falls back
    // to ModelSystem where there is none (inputs read outside a segment, spline inputs): the same
    // values to the last bit as the interpreter's, on the switched form too, inside the segment and
    // beyond its ends (where an adaptive step that overshoots reads the segment's lines).
    void sensitivityKernelAgreesWithTheInterpreter()
    {
        using integrate::Intersample;
        std::size_t kernelCalls = 0;
        for (const char* file : {"duffing.model", "forced_input_sdof.model", "sdof_drag.model"}) {
            const auto source = compileFile(std::string(SYSID_SOURCE_DIR) + "/resources/examples/" + file);
            eval::requestNativeCode(source, eval::ModelCode::Native);
            source->native->wait();
            const bool hasInputs = source->inputCount() > 0;
            for (const Intersample behaviour : {Intersample::Linear, Intersample::Hold, Intersample::Spline}) {
                if (!hasInputs && behaviour != Intersample::Linear)
                    continue;
                eval::CompiledModel native(source), reference(interpreted(*source));
                QVERIFY(native.native());
                std::vector<data::Signal> perInput;
                for (std::size_t i = 0; i < source->inputCount(); ++i)
                    perInput.emplace_back(std::vector<double>{0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0},
                                          std::vector<double>{0.3, -0.2, 0.5, 0.1 * double(i), 0.7, -0.4, 0.2});
                const integrate::InputSignals inputs(perInput,
                                                     std::vector<Intersample>(source->inputCount(), behaviour));
                integrate::ModelSystem a(native, &inputs), b(reference, &inputs);
                QVERIFY(a.sensitivityKernel());
                QCOMPARE(a.sensitivityKernel()->withParameters == nullptr, hasInputs);
                const std::size_t np = native.parameterCount();
                std::vector<std::size_t> parameters(np);
                for (std::size_t l = 0; l < np; ++l)
                    parameters[l] = l;
                integrate::SensitivitySystem sa(a, parameters, true), sb(b, parameters, true);
                std::mt19937 random(5);
                std::uniform_real_distribution<double> draw(-1.5, 1.5);
                for (int k = 0; k < 10; ++k) {
                    if (hasInputs && (k == 2 || k == 6)) {  // segments as the driver holds them, one after another
                        const double start = k == 2 ? 1.0 : 1.5;
                        a.beginSegment(start, start + 0.5);
                        b.beginSegment(start, start + 0.5);
                        QCOMPARE(a.sensitivityKernel()->withParameters == nullptr, behaviour == Intersample::Spline);
                    }
                    if (k == 4 && source->switchCount() > 0) {  // on held modes: the switched form's kernel
                        const std::vector<double> modes(source->switchCount(), 1.0);
                        const std::vector<char> sliding(source->switchCount(), 0);
                        a.holdModes(modes, sliding);
                        b.holdModes(modes, sliding);
                    }
                    if (a.sensitivityKernel()->withParameters)
                        ++kernelCalls;
                    std::vector<double> z(sa.size()), dza(sa.size()), dzb(sb.size());
                    for (auto& e : z)
                        e = draw(random);
                    const double t = 1.5 + draw(random);
                    sa.rhs(t, z.data(), dza.data());
                    sb.rhs(t, z.data(), dzb.data());
                    QVERIFY2(difference(dza, dzb) == 0.0,
                             qPrintable(QString("%1, intersample %2, point %3").arg(file).arg(int(behaviour)).arg(k)));
                }
                if (hasInputs) {
                    a.releaseSegment();
                    QVERIFY(a.sensitivityKernel()->withParameters == nullptr);
                }
            }
        }
        QVERIFY(kernelCalls >= 20);
    }

    // Native code is the interpreter's program compiled: a fit takes the same steps with it.
    void fitIsTheSameWithAndWithoutNativeCode()
    {
        const project::Project project =
            project::loadProject(std::string(SYSID_SOURCE_DIR) + "/resources/examples/sdof_cubic.sysid");
        job::FitJob fit = project::makeFitJob(project);
        fit.settings.integrator.modelCode = eval::ModelCode::Interpreted;
        job::NullProgressSink sink;
        const estimate::FitResult tape = fit.run(sink);
        fit.settings.integrator.modelCode = eval::ModelCode::Native;
        const estimate::FitResult native = fit.run(sink);
        QCOMPARE(native.iterations, tape.iterations);
        QVERIFY(tape.iterations > 0);
        QCOMPARE(native.parameters.size(), tape.parameters.size());
        for (std::size_t i = 0; i < tape.parameters.size(); ++i) {
            const double a = native.parameters[i].value, b = tape.parameters[i].value;
            QVERIFY2(std::abs(a - b) <= 1e-13 * std::abs(b), qPrintable(QString("%1 vs %2").arg(a, 0, 'g', 17).arg(b, 0, 'g', 17)));
        }
        QVERIFY(std::abs(native.cost - tape.cost) <= 1e-13 * tape.cost);
    }

    // No compiler, a compiler that fails, native code switched off: the interpreter, one notice.
    void withoutACompilerTheInterpreterRuns()
    {
        std::vector<std::string> notices;
        std::mutex guard;
        eval::setNativeCodeNotices([&](const std::string& line) {
            const std::lock_guard lock(guard);
            notices.push_back(line);
        });
        const std::string model = std::string(SYSID_SOURCE_DIR) + "/resources/examples/duffing.model";
        {
            const Environment cc("SYSID_CC", "/nonexistent/sysid-test-cc");
            for (int twice = 0; twice < 2; ++twice) {
                const auto source = compileFile(model);
                eval::requestNativeCode(source, eval::ModelCode::Native);
                QVERIFY(source->native->settled());
                QVERIFY(!source->native->functions());
                QVERIFY2(source->native->failure().find("no C compiler") != std::string::npos,
                         source->native->failure().c_str());
                eval::CompiledModel m(source);
                QVERIFY(!m.native());
                const double x[2] = {0.5, -0.25};
                m.setPoint(0.0, x, nullptr);
                double dx[2];
                m.rhs(dx);
                QCOMPARE(dx[0], -0.25);
            }
            QCOMPARE(notices.size(), std::size_t(1));  // once per process
            QVERIFY(notices.front().find("interpreted") != std::string::npos);
            QVERIFY(notices.front().find('\n') == std::string::npos);
        }
        {
            // A compiler that refuses the code (an option it does not know).
            const Environment cc("SYSID_CC", "cc --sysid-no-such-option");
            const auto source = compileFile(model);
            eval::requestNativeCode(source, eval::ModelCode::Native);
            QVERIFY(!source->native->functions());
            QVERIFY2(source->native->failure().find("failed") != std::string::npos, source->native->failure().c_str());
            QCOMPARE(notices.size(), std::size_t(2));
        }
        {
            const Environment off("SYSID_NATIVE", "off");
            const auto source = compileFile(model);
            eval::requestNativeCode(source, eval::ModelCode::Native);
            QVERIFY(!source->native->requested());
        }
        {
            const auto source = compileFile(model);
            eval::requestNativeCode(source, eval::ModelCode::Interpreted);
            QVERIFY(!source->native->requested());
            eval::requestNativeCode(source, eval::ModelCode::Native);
            QVERIFY(source->native->functions());
            QVERIFY(source->native->fromCache());  // compiled by the first test
        }
        QCOMPARE(notices.size(), std::size_t(2));
        eval::setNativeCodeNotices([](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); });
    }

    // In the background the interpreter serves until the code is loaded; evaluators switch then.
    void evaluatorsSwitchWhenTheCodeIsReady()
    {
        eval::setNativeCodeWaits(false);
        const Environment cache("SYSID_NATIVE_CACHE",
                                (std::filesystem::temp_directory_path() /
                                 ("sysid-native-test-" + std::to_string(::getpid())))
                                    .string());
        const auto source = compileFile(std::string(SYSID_SOURCE_DIR) + "/resources/examples/vanderpol.model");
        eval::CompiledModel m(source);
        eval::requestNativeCode(source, eval::ModelCode::Native);
        const double x[2] = {0.3, 0.1};
        m.setPoint(0.0, x, nullptr);
        double before[2], after[2];
        m.rhs(before);  // whatever is ready
        source->native->wait();
        QVERIFY(source->native->functions());
        QVERIFY(!source->native->fromCache());
        QVERIFY(source->native->buildSeconds() > 0.0);
        m.rhs(after);
        QVERIFY(m.native());
        QCOMPARE(after[0], before[0]);
        QCOMPARE(after[1], before[1]);
        std::error_code error;
        std::filesystem::remove_all(std::getenv("SYSID_NATIVE_CACHE"), error);
        eval::setNativeCodeWaits(true);
    }

    // A model's library goes with the last user of its model, unless the process keeps its
    // libraries (the command line, setNativeLibrariesKept).
    void aLibraryStaysLoadedOnlyWhenKept()
    {
        const Environment cache("SYSID_NATIVE_CACHE",
                                (std::filesystem::temp_directory_path() /
                                 ("sysid-native-kept-" + std::to_string(::getpid())))
                                    .string());
        const auto loadedObjects = [] {
            int count = 0;
            ::dl_iterate_phdr([](dl_phdr_info*, std::size_t, void* n) { return ++*static_cast<int*>(n), 0; }, &count);
            return count;
        };
        for (const bool kept : {false, true}) {
            eval::setNativeLibrariesKept(kept);
            const int before = loadedObjects();
            {
                const auto source = compileFile(std::string(SYSID_SOURCE_DIR) + "/resources/examples/vanderpol.model");
                eval::requestNativeCode(source, eval::ModelCode::Native);
                source->native->wait();
                QVERIFY(source->native->functions());
                QCOMPARE(loadedObjects(), before + 1);
            }
            QCOMPARE(loadedObjects(), kept ? before + 1 : before);
        }
        eval::setNativeLibrariesKept(false);
        std::error_code error;
        std::filesystem::remove_all(std::getenv("SYSID_NATIVE_CACHE"), error);
    }
};

QTEST_APPLESS_MAIN(TestNativeCode)
#include "test_native_code.moc"
