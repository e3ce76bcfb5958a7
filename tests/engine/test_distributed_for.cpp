// Work spread over processes (engine/parallel): the round-robin split, doubles that travel as text
// bit for bit, and parallel::distributedFor run by three "processes" (threads meeting in an
// in-process gather, as MPI ranks meet in MpiProcessGroup::gather): results in index order on
// process 0 only, a throwing task reported and not fatal, a throwing progress callback rethrown
// after the gather without leaving another process waiting. Then a noise study, a cost surface and
// a profile likelihood over three processes against one: equal bit for bit but for the ranks.
// The same paths through mpirun are tested by test_cli_mpi.

#include "engine/data/DataTable.h"
#include "engine/job/CostSurface.h"
#include "engine/job/NoiseStudy.h"
#include "engine/job/ProfileLikelihood.h"
#include "engine/parallel/DistributedFor.h"
#include "engine/parallel/ExactJson.h"
#include "engine/parallel/IndexSplit.h"
#include "engine/project/CostSurfaceJson.h"
#include "engine/project/ProfileJson.h"
#include "engine/project/StudyJson.h"

#include <QtTest>

#include <algorithm>
#include <bit>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <limits>
#include <mutex>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>

using namespace sysid;
using nlohmann::json;

namespace {

// The meeting point of `size` in-process ranks: gather waits until every rank has arrived.
struct Rendezvous {
    explicit Rendezvous(int n) : size(n), texts(static_cast<std::size_t>(n)) {}
    int size;
    std::mutex mutex;
    std::condition_variable arrivedAll;
    std::vector<std::string> texts, gathered;
    int arrived = 0, generation = 0;
};

class ThreadRank final : public parallel::ProcessGroup {
public:
    ThreadRank(Rendezvous& meeting, int rank) : meeting_(meeting), rank_(rank) {}
    int rank() const override { return rank_; }
    int size() const override { return meeting_.size; }
    std::vector<std::string> gather(const std::string& mine) const override
    {
        std::unique_lock lock(meeting_.mutex);
        const int generation = meeting_.generation;
        meeting_.texts[static_cast<std::size_t>(rank_)] = mine;
        if (++meeting_.arrived == meeting_.size) {
            meeting_.gathered = meeting_.texts;
            meeting_.arrived = 0;
            ++meeting_.generation;
            meeting_.arrivedAll.notify_all();
        } else {
            meeting_.arrivedAll.wait(lock, [&] { return meeting_.generation != generation; });
        }
        return rank_ == 0 ? meeting_.gathered : std::vector<std::string>{};
    }

private:
    Rendezvous& meeting_;
    int rank_;
};

// Runs body(group) as `ranks` processes at once; returns what rank 0 returned and, per rank, the
// exception message it ended with (empty when none).
template <class Result>
std::pair<Result, std::vector<std::string>> asProcesses(
    int ranks, const std::function<Result(const parallel::ProcessGroup&)>& body)
{
    Rendezvous meeting(ranks);
    std::vector<ThreadRank> groups;
    for (int r = 0; r < ranks; ++r)
        groups.emplace_back(meeting, r);
    Result root{};
    std::vector<std::string> errors(static_cast<std::size_t>(ranks));
    std::vector<std::thread> threads;
    for (int r = 0; r < ranks; ++r)
        threads.emplace_back([&, r] {
            try {
                Result result = body(groups[static_cast<std::size_t>(r)]);
                if (r == 0)
                    root = std::move(result);
            } catch (const std::exception& e) {
                errors[static_cast<std::size_t>(r)] = e.what();
            }
        });
    for (auto& t : threads)
        t.join();
    return {std::move(root), errors};
}

// The text of a result with the members that name processes ("ranks", "rank", "row_ranks") removed.
json withoutRanks(json j)
{
    if (j.is_object()) {
        for (const char* key : {"ranks", "rank", "row_ranks"})
            j.erase(key);
        for (auto& [key, value] : j.items())
            value = withoutRanks(value);
    } else if (j.is_array()) {
        for (auto& value : j)
            value = withoutRanks(value);
    }
    return j;
}

// x' = a + b t + 1e-9 log(u) on t = 0 .. 2 with a deterministic wiggle on x (so the residual
// variance is not zero). u is 1 except one sample of 0.01, so the noise a study adds there takes
// some realisations below zero: log(u) is NaN and their fits fail, as a fit on real data can.
job::FitJob linearJob()
{
    std::vector<double> t, x, u;
    for (int k = 0; k <= 40; ++k) {
        const double s = 0.05 * k;
        t.push_back(s);
        x.push_back(s + s * s + 0.02 * std::sin(7.0 * k));
        u.push_back(k == 20 ? 0.01 : 1.0);
    }
    job::FitJob fit;
    fit.modelText = "param a = 0.5\nparam b = 0.5\ninput u\nstate x = 0\nx' = a + b*t + 1e-9*log(u)\noutput x\n";
    fit.modelSource = "linear.model";
    job::ExperimentData experiment;
    experiment.table.source = "linear.csv";
    experiment.table.columnNames = {"t", "x", "u"};
    experiment.table.columns = {t, x, u};
    experiment.table.timeColumn = 0;
    fit.experiments.push_back(experiment);
    return fit;
}

}  // namespace

class TestDistributedFor : public QObject {
    Q_OBJECT

private slots:
    void everyIndexHasOneOwner()
    {
        for (const std::size_t count : {0u, 1u, 5u, 17u})
            for (const int ranks : {1, 2, 3, 7}) {
                std::vector<int> owners(count, -1);
                for (int rank = 0; rank < ranks; ++rank)
                    for (const std::size_t i : parallel::indicesOf(count, rank, ranks)) {
                        QVERIFY(i < count);
                        QCOMPARE(owners[i], -1);
                        owners[i] = rank;
                        QCOMPARE(parallel::ownerOf(i, ranks), rank);
                    }
                for (const int owner : owners)
                    QVERIFY(owner >= 0);
            }
        // Round robin: rank 1 of 3 computes 1, 4, 7.
        QCOMPARE(parallel::indicesOf(9, 1, 3), (std::vector<std::size_t>{1, 4, 7}));
    }

    void doublesTravelBitForBit()
    {
        std::vector<double> values{0.0,
                                   -0.0,
                                   1.0 / 3.0,
                                   0.1,
                                   4.9406564584124654e-324,  // the smallest subnormal
                                   std::numeric_limits<double>::min(),
                                   std::numeric_limits<double>::max(),
                                   -std::numeric_limits<double>::infinity(),
                                   std::numeric_limits<double>::infinity(),
                                   std::numeric_limits<double>::quiet_NaN()};
        std::mt19937_64 random(7);
        for (int k = 0; k < 2000; ++k) {
            std::uint64_t bits = random();
            double v = 0;
            std::memcpy(&v, &bits, sizeof v);
            values.push_back(v);
        }
        const json text = json::parse(parallel::exactNumbers(values).dump());
        const std::vector<double> back = parallel::exactNumbers(text);
        QCOMPARE(back.size(), values.size());
        for (std::size_t k = 0; k < values.size(); ++k) {
            if (std::isnan(values[k]))
                QVERIFY(std::isnan(back[k]));
            else
                QCOMPARE(std::bit_cast<std::uint64_t>(back[k]), std::bit_cast<std::uint64_t>(values[k]));
        }
    }

    void resultsReachProcessZeroInIndexOrder()
    {
        struct Seen {
            std::vector<parallel::IndexResult> results;
            std::vector<std::size_t> finished;  // indices `finished` was called with, in call order
        };
        const auto [root, errors] = asProcesses<Seen>(3, [](const parallel::ProcessGroup& group) {
            Seen seen;
            seen.results = parallel::distributedFor(
                group, 10, 2,
                [](std::size_t i, std::size_t, std::stop_token) -> std::optional<std::string> {
                    if (i == 4)
                        throw std::runtime_error("index 4 cannot be computed");
                    return std::to_string(i * i);
                },
                [&](const parallel::IndexResult& r) {
                    if (!group.isRoot())
                        throw std::logic_error("progress on a process other than 0");
                    seen.finished.push_back(r.index);
                });
            if (!group.isRoot() && !seen.results.empty())
                throw std::logic_error("results on a process other than 0");
            return seen;
        });
        for (const std::string& e : errors)
            QVERIFY2(e.empty(), e.c_str());
        QCOMPARE(root.results.size(), std::size_t{10});
        for (std::size_t i = 0; i < 10; ++i) {
            const parallel::IndexResult& r = root.results[i];
            QCOMPARE(r.index, i);
            QCOMPARE(r.rank, static_cast<int>(i % 3));
            QCOMPARE(r.failed, i == 4);
            QCOMPARE(r.text, i == 4 ? std::string("index 4 cannot be computed") : std::to_string(i * i));
        }
        // Process 0's own indices as they finish (0, 3, 6, 9 in some order), then the others' in index order.
        QCOMPARE(root.finished.size(), std::size_t{10});
        std::vector<std::size_t> own(root.finished.begin(), root.finished.begin() + 4);
        std::sort(own.begin(), own.end());
        QCOMPARE(own, (std::vector<std::size_t>{0, 3, 6, 9}));
        QCOMPARE(std::vector<std::size_t>(root.finished.begin() + 4, root.finished.end()),
                 (std::vector<std::size_t>{1, 2, 4, 5, 7, 8}));
    }

    void aThrowingProgressCallbackEndsOnlyProcessZero()
    {
        // Process 0's callback throws at its first result; the others finish and meet it at the
        // gather (a hang here would be a deadlock, not a failure), then process 0 rethrows.
        const auto [root, errors] = asProcesses<int>(3, [](const parallel::ProcessGroup& group) {
            const auto results = parallel::distributedFor(
                group, 30, 1, [](std::size_t i, std::size_t, std::stop_token) { return std::to_string(i); },
                [](const parallel::IndexResult&) { throw std::runtime_error("the progress display is gone"); });
            return static_cast<int>(results.size());
        });
        QCOMPARE(errors[0], std::string("the progress display is gone"));
        QVERIFY(errors[1].empty() && errors[2].empty());
    }

    void aStudyOverThreeProcessesEqualsOne()
    {
        job::NoiseStudy study;
        study.fit = linearJob();
        study.settings.realisations = 12;
        study.settings.noisePercent = 5;
        study.settings.distribution = data::NoiseDistribution::Gaussian;
        study.settings.seed = 3;
        study.trueValues = {{"a", 1.0}, {"b", 2.0}};
        study.threads = 2;
        const json one = project::studyResultToJson(study.run());
        const auto [three, errors] = asProcesses<json>(3, [&](const parallel::ProcessGroup& group) {
            job::NoiseStudy copy = study;
            copy.threads = 1;
            copy.processes = &group;
            return project::studyResultToJson(copy.run());
        });
        for (const std::string& e : errors)
            QVERIFY2(e.empty(), e.c_str());
        QCOMPARE(one["ranks"].get<int>(), 1);
        QCOMPARE(three["ranks"].get<int>(), 3);
        QCOMPARE(withoutRanks(three).dump(), withoutRanks(one).dump());
        // Some realisations fail (log of a negative input); those of processes 1 and 2 are reported too.
        std::size_t failedElsewhere = 0;
        for (const json& r : three["realisations"]) {
            QCOMPARE(r["rank"].get<int>(), r["index"].get<int>() % 3);
            failedElsewhere += r["failed"].get<bool>() && r["rank"].get<int>() != 0 ? 1 : 0;
        }
        QVERIFY(one["failed"].get<int>() > 0 && one["failed"].get<int>() < 12);
        QVERIFY(failedElsewhere > 0);
    }

    void aCostSurfaceOverThreeProcessesEqualsOne()
    {
        job::CostSurface surface;
        surface.fit = linearJob();
        surface.x = {"a", 0.5, 1.5, 7};
        surface.y = {"b", 1.0, 3.0, 8};
        const json one = project::costSurfaceToJson(surface.run());
        const auto [three, errors] = asProcesses<json>(3, [&](const parallel::ProcessGroup& group) {
            job::CostSurface copy = surface;
            copy.threads = 1;
            copy.processes = &group;
            return project::costSurfaceToJson(copy.run());
        });
        for (const std::string& e : errors)
            QVERIFY2(e.empty(), e.c_str());
        QCOMPARE(withoutRanks(three).dump(), withoutRanks(one).dump());
        QCOMPARE(three["row_ranks"].get<std::vector<int>>(), (std::vector<int>{0, 1, 2, 0, 1, 2, 0, 1}));
        QCOMPARE(one["row_ranks"].get<std::vector<int>>(), std::vector<int>(8, 0));
    }

    void aProfileOverThreeProcessesEqualsOne()
    {
        job::ProfileLikelihood profile;
        profile.fit = linearJob();
        profile.settings.points = 6;
        const json one = project::profileResultToJson(profile.run());
        const auto [three, errors] = asProcesses<json>(3, [&](const parallel::ProcessGroup& group) {
            job::ProfileLikelihood copy = profile;
            copy.threads = 1;
            copy.processes = &group;
            return project::profileResultToJson(copy.run());
        });
        for (const std::string& e : errors)
            QVERIFY2(e.empty(), e.c_str());
        QCOMPARE(withoutRanks(three).dump(), withoutRanks(one).dump());
        QCOMPARE(three["ranks"].get<int>(), 3);
        // Sides a-down, a-up, b-down, b-up go to processes 0, 1, 2, 0; the optimum is process 0's.
        std::set<int> ranks;
        for (const json& p : three["profiles"]["a"]["points"])
            ranks.insert(p["rank"].get<int>());
        QCOMPARE(ranks, (std::set<int>{0, 1}));
        ranks.clear();
        for (const json& p : three["profiles"]["b"]["points"])
            ranks.insert(p["rank"].get<int>());
        QCOMPARE(ranks, (std::set<int>{0, 2}));
    }
};

QTEST_GUILESS_MAIN(TestDistributedFor)
#include "test_distributed_for.moc"
