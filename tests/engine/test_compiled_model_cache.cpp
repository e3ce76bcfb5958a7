// The cache of compiled models (eval::CompiledModelCache, eval::CompiledModelCodec): every
// example model survives the round trip to bytes with every evaluation bit for bit the same; an
// entry is read only for the same text, source name and options; a damaged entry is a miss; and
// job::compileModelText reads the entry instead of compiling.
#include "NativeCodeTestSupport.h"

#include "engine/eval/CompiledModel.h"
#include "engine/eval/CompiledModelCache.h"
#include "engine/eval/CompiledModelCodec.h"
#include "engine/eval/CompiledModelSource.h"
#include "engine/eval/NativeCompiler.h"
#include "engine/job/ModelText.h"
#include "engine/model/ModelBuilder.h"
#include "engine/model/SymbolicLock.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <random>
#include <string>
#include <utility>
#include <vector>

using namespace sysid;
using test::Environment;

namespace {

const std::string kExamples = SYSID_SOURCE_DIR "/resources/examples";

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::shared_ptr<const eval::CompiledModelSource> compileText(const std::string& text, const std::string& source,
                                                             eval::CompileOptions options = {})
{
    const std::lock_guard lock(model::symbolicMutex());
    return eval::compileModel(model::parseModel(text, source), options);
}

bool sameBits(const std::vector<double>& a, const std::vector<double>& b)
{
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Every evaluation a run makes, on the interpreter, at a few random points with the model's parameters.
std::vector<double> evaluations(const std::shared_ptr<const eval::CompiledModelSource>& source)
{
    eval::CompiledModel m(test::interpreted(*source));
    const std::size_t n = m.stateCount(), np = m.parameterCount(), nu = m.inputCount(), ny = m.outputCount();
    std::mt19937 random(7);
    std::uniform_real_distribution<double> value(0.2, 1.3);
    std::vector<double> out;
    auto take = [&](std::size_t size, auto&& fill) {
        std::vector<double> v(size);
        fill(v.data());
        out.insert(out.end(), v.begin(), v.end());
    };
    for (int point = 0; point < 3; ++point) {
        std::vector<double> x(n), u(nu);
        for (auto& v : x)
            v = value(random);
        for (auto& v : u)
            v = value(random);
        m.setPoint(value(random), x.data(), u.data());
        take(n, [&](double* v) { m.rhs(v); });
        take(n * n, [&](double* v) { m.stateJacobian(v); });
        take(n * np, [&](double* v) { m.parameterJacobian(v); });
        take(n * (1 + nu), [&](double* v) { m.timeInputJacobian(v); });
        take(ny, [&](double* v) { m.outputs(v); });
        take(ny * n, [&](double* v) { m.outputStateJacobian(v); });
        take(ny * np, [&](double* v) { m.outputParameterJacobian(v); });
        take(n, [&](double* v) { m.initialState(v); });
        take(n * np, [&](double* v) { m.initialStateJacobian(v); });
        if (source->hasSecondDerivatives)
            take(source->rhsStateHessian.entries.size(), [&](double* v) { m.stateHessianValues(v); });
        take(m.switchCount(), [&](double* v) { m.switchingFunctions(v); });
        take(m.eventCount(), [&](double* v) { m.eventConditions(v); });
        take(m.invariantCount(), [&](double* v) { m.invariants(v, nullptr, nullptr, nullptr); });
    }
    return out;
}

}  // namespace

class TestCompiledModelCache : public QObject {
    Q_OBJECT

private slots:
    // Each example, encoded and decoded, evaluates to the same bits and encodes to the same bytes;
    // the examples between them have every part a compiled model can have.
    void everyExampleSurvivesTheRoundTrip()
    {
        bool switches = false, events = false, constraints = false, fields = false, priors = false, units = false,
             infinite = false, intersample = false, outputStates = false;
        int models = 0;
        std::vector<std::pair<std::string, std::string>> texts;  // name, text
        for (const auto& entry : std::filesystem::directory_iterator(kExamples))
            if (entry.path().extension() == ".model")
                texts.emplace_back(entry.path().string(), readFile(entry.path()));
        // No example has a prior.
        texts.emplace_back("prior.model", "state x = 1\nparam k = 2*pi [0, 100] prior 6, 1\nx' = -k*x\noutput y = x\n");
        for (const auto& [name, text] : texts) {
            std::shared_ptr<const eval::CompiledModelSource> original;
            try {
                original = compileText(text, name);
            } catch (const std::exception&) {
                continue;  // an example that only a method's own compiler takes
            }
            ++models;
            const std::string bytes = eval::encodeCompiledModel(*original);
            const auto decoded = eval::decodeCompiledModel(bytes);
            QVERIFY2(decoded, name.c_str());
            QCOMPARE(eval::encodeCompiledModel(*decoded), bytes);
            QVERIFY2(decoded->native && !decoded->native->requested(), name.c_str());
            QVERIFY2(sameBits(evaluations(original), evaluations(decoded)), name.c_str());
            QCOMPARE(decoded->rhs, original->rhs);
            QCOMPARE(decoded->parameterNames, original->parameterNames);
            switches |= decoded->switchCount() > 0;
            events |= !decoded->events.empty();
            constraints |= decoded->isDae();
            fields |= !decoded->fields.empty();
            intersample |= !decoded->declaredIntersample.empty();
            for (const int s : decoded->outputState)
                outputStates |= s >= 0;
            for (std::size_t i = 0; i < decoded->parameters.size(); ++i) {
                const auto& a = decoded->parameters[i];
                const auto& b = original->parameters[i];
                QCOMPARE(a.name, b.name);
                QCOMPARE(a.unit, b.unit);
                QCOMPARE(a.prior.has_value(), b.prior.has_value());
                QCOMPARE(a.where.line, b.where.line);
                QCOMPARE(a.lower, b.lower);
                priors |= a.prior.has_value();
                units |= !a.unit.empty();
                infinite |= std::isinf(a.upper);
            }
            if (!decoded->events.empty())
                QCOMPARE(decoded->events.front().text, original->events.front().text);
            if (decoded->isDae())
                QCOMPARE(decoded->constraints.invariantInfo.front().place, original->constraints.invariantInfo.front().place);
        }
        QVERIFY(models >= 30);
        QVERIFY(switches && events && constraints && fields && priors && units && infinite && intersample && outputStates);
    }

    // Truncated, extended or altered bytes do not decode.
    void damagedBytesDoNotDecode()
    {
        const auto original = compileText(readFile(kExamples + "/bouncing_ball.model"), "bouncing_ball.model");
        const std::string bytes = eval::encodeCompiledModel(*original);
        for (const std::size_t keep : {std::size_t(0), std::size_t(7), bytes.size() / 2, bytes.size() - 1})
            QVERIFY(!eval::decodeCompiledModel(bytes.substr(0, keep)));
        QVERIFY(!eval::decodeCompiledModel(bytes + "x"));
        std::string huge = bytes;
        huge[8 + 7] = '\x7f';  // the length of the first list: far more than the bytes left
        QVERIFY(!eval::decodeCompiledModel(huge));
    }

    void entryIsReadForTheSameKeyOnly()
    {
        QTemporaryDir folder;
        const Environment cache("SYSID_NATIVE_CACHE", folder.path().toStdString());
        const std::string text = readFile(kExamples + "/duffing_periodic.model");
        const auto model = compileText(text, "duffing_periodic.model");
        const eval::CompiledModelCache entry(text, "duffing_periodic.model", {});
        QVERIFY(!entry.find());
        entry.keep(*model);
        const auto found = entry.find();
        QVERIFY(found);
        QCOMPARE(eval::encodeCompiledModel(*found), eval::encodeCompiledModel(*model));
        QVERIFY(!eval::CompiledModelCache(text + " ", "duffing_periodic.model", {}).find());
        QVERIFY(!eval::CompiledModelCache(text, "other.model", {}).find());
        QVERIFY(!eval::CompiledModelCache(text, "duffing_periodic.model", {.secondDerivatives = false}).find());
    }

    void damagedEntryIsAMiss()
    {
        QTemporaryDir folder;
        const Environment cache("SYSID_NATIVE_CACHE", folder.path().toStdString());
        const std::string text = readFile(kExamples + "/duffing_periodic.model");
        const eval::CompiledModelCache entry(text, "duffing_periodic.model", {});
        entry.keep(*compileText(text, "duffing_periodic.model"));
        std::filesystem::path file;
        for (const auto& f : std::filesystem::directory_iterator(folder.path().toStdString()))
            file = f.path();
        QCOMPARE(file.extension().string(), std::string(".model"));
        const std::string whole = readFile(file);
        for (const std::size_t at : {whole.size() - 40, whole.size() - 3, whole.size() / 2}) {
            std::string damaged = whole;
            damaged[at] = static_cast<char>(damaged[at] ^ 0x01);
            std::ofstream(file, std::ios::binary | std::ios::trunc) << damaged;
            QVERIFY(!entry.find());
        }
        std::ofstream(file, std::ios::binary | std::ios::trunc) << whole.substr(0, whole.size() - 1);
        QVERIFY(!entry.find());
        std::ofstream(file, std::ios::binary | std::ios::trunc) << whole;
        QVERIFY(entry.find());
    }

    void switchedOffByTheEnvironment()
    {
        QTemporaryDir folder;
        const Environment cache("SYSID_NATIVE_CACHE", folder.path().toStdString());
        const Environment off("SYSID_MODEL_CACHE", "off");
        const std::string text = readFile(kExamples + "/duffing_periodic.model");
        const eval::CompiledModelCache entry(text, "duffing_periodic.model", {});
        entry.keep(*compileText(text, "duffing_periodic.model"));
        QVERIFY(!entry.find());
        QVERIFY(std::filesystem::is_empty(folder.path().toStdString()));
    }

    // compileModelText keeps what it compiles and reads it back instead of compiling: an entry
    // holding another model under this text's key is what the next call returns.
    void compileModelTextReadsTheEntry()
    {
        QTemporaryDir folder;
        const Environment cache("SYSID_NATIVE_CACHE", folder.path().toStdString());
        const std::string text = readFile(kExamples + "/duffing_periodic.model");
        const auto first = job::compileModelText(text, "duffing_periodic.model", {}, eval::ModelCode::Interpreted);
        const auto second = job::compileModelText(text, "duffing_periodic.model", {}, eval::ModelCode::Interpreted);
        QCOMPARE(eval::encodeCompiledModel(*second), eval::encodeCompiledModel(*first));
        QVERIFY(second.get() != first.get());

        const auto other = compileText(readFile(kExamples + "/vanderpol.model"), "vanderpol.model");
        eval::CompiledModelCache(text, "duffing_periodic.model", {}).keep(*other);
        const auto read = job::compileModelText(text, "duffing_periodic.model", {}, eval::ModelCode::Interpreted);
        QCOMPARE(read->stateNames, other->stateNames);
        QCOMPARE(read->rhs, other->rhs);
        QVERIFY(read->rhs != first->rhs);
    }

    // A model read from the cache finds its native library under the cache's name, without the C
    // text: with the text's copy of the C source gone, it still loads from the cache and computes
    // what the interpreter computes.
    void nativeCodeIsFoundByTheCacheName()
    {
        QTemporaryDir folder;
        const Environment cache("SYSID_NATIVE_CACHE", folder.path().toStdString());
        const std::string text = readFile(kExamples + "/duffing_periodic.model");
        auto first = job::compileModelText(text, "duffing_periodic.model", {});
        first->native->wait();
        QVERIFY2(first->native->functions(), first->native->failure().c_str());
        QVERIFY(!first->native->fromCache());
        int libraries = 0;
        for (const auto& f : std::filesystem::directory_iterator(folder.path().toStdString())) {
            libraries += f.path().extension() == ".so";
            if (f.path().extension() == ".c")
                std::filesystem::remove(f.path());
        }
        QCOMPARE(libraries, 2);  // the text's name and the cache's

        const std::string folderPath = folder.path().toStdString();
        std::filesystem::path named;
        {
            const auto second = job::compileModelText(text, "duffing_periodic.model", {});
            QCOMPARE(second->cacheName, first->cacheName);
            named = std::filesystem::path(folderPath) / (eval::nativeCacheStem(second->cacheName) + ".so");
            second->native->wait();
            QVERIFY2(second->native->functions(), second->native->failure().c_str());
            QVERIFY(second->native->fromCache());
            eval::CompiledModel native(second);
            QVERIFY(native.native());
            eval::CompiledModel reference(test::interpreted(*second));
            const double x[] = {0.3, -0.7};
            double a[2], b[2];
            native.setPoint(0.4, x, nullptr);
            reference.setPoint(0.4, x, nullptr);
            native.rhs(a);
            reference.rhs(b);
            QCOMPARE(a[0], b[0]);
            QCOMPARE(a[1], b[1]);
        }

        // A library under the cache's name that does not load is dropped, and the code built again
        // (once no model holds it: a loaded library is found by its name without reading the file).
        first.reset();
        // The building threads hold the models until they finish: under load that can be after
        // wait() returned, and a library they hold stays loaded.
        QTRY_VERIFY(!eval::nativeBuildsInFlight());
        QVERIFY(std::filesystem::exists(named));
        std::ofstream(named.string() + ".new", std::ios::binary) << "not a library";
        std::filesystem::rename(named.string() + ".new", named);  // a new file: the loaded one stays as it is
        const auto third = job::compileModelText(text, "duffing_periodic.model", {});
        third->native->wait();
        QVERIFY2(third->native->functions(), third->native->failure().c_str());
        QVERIFY(!third->native->fromCache());
        QVERIFY(readFile(named).size() > 1000);
    }

    // A model with an error is not kept, and says where the error is every time.
    void errorsAreNotKept()
    {
        QTemporaryDir folder;
        const Environment cache("SYSID_NATIVE_CACHE", folder.path().toStdString());
        const std::string text = "state x\nparameter a = 1\nx' = -a*x +\n";
        for (int run = 0; run < 2; ++run) {
            try {
                job::compileModelText(text, "broken.model", {}, eval::ModelCode::Interpreted);
                QFAIL("a broken model compiled");
            } catch (const std::exception& e) {
                QVERIFY2(std::string(e.what()).find("broken.model:3") != std::string::npos, e.what());
            }
        }
        QVERIFY(std::filesystem::is_empty(folder.path().toStdString()));
    }
};

QTEST_APPLESS_MAIN(TestCompiledModelCache)
#include "test_compiled_model_cache.moc"
