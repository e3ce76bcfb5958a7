// Validation of the equation-error estimators against seed 004 (Normann 1989), Tables 1-22:
// the three single-degree-of-freedom oscillators and the 2-DOF cubic system, each identified by
//   direct      output error from the displacements (the seed's iterative direct method, ch. 2),
//   single-step equation error of Heun's formula (ch. 3, eq. 3.3),
//   multistep   equation error of the six-step closed Newton-Cotes formula (ch. 4, eq. 4.5),
// from a 5 s record of 335 samples of displacement AND velocity, each with uniform noise of
// +-p % of its own RMS (p = 0, 5, 10, 20), unfiltered and after zero-phase Butterworth
// low-passes (see filterings; the seed used BMD03T, cutoff "slightly above" 5 rad/s). The seed's starting values
// throughout (the equation-error methods do not estimate the impulse Q = u'(0): the states come from the data).
//
// Noise: one realisation per case (seeded from the case label), scaled by p, as the seed's
// estimates, which move almost linearly with p, suggest it did (one DRNUN sequence).
//
// Acceptance (what can fail):
//  - noise-free, unfiltered data:
//      direct and multistep: every estimate within 1e-6 relative of the truth. The data are
//        integrated to rtol 1e-11; Newton-Cotes-6 integrates polynomials of degree 7 exactly,
//        its local error is O(h^9 y^(9)), so the bias it leaves is O((omega h)^8), 1e-10 at
//        omega h = 5 * 5/334 = 0.075 (measured 1.5e-10 on the quadratic oscillator). Except
//        drag, where v|v| is not smooth (5e-3, see noiseFreeTolerance).
//      single-step (Heun): exact only up to its own truncation error. Its local error is
//        O(h^3 y'''), the residual is h * F, so the bias is O(h^2): measured 3e-3 relative on
//        the quadratic oscillator at h = 5/334, as the seed's Tables 7-8 (Omega2 24.98);
//        singleStepBiasIsSecondOrder checks the order itself: halving h divides the bias by 4
//        (3.5..4.5), and Richardson extrapolation of h and h/2 is exact to 3e-5.
//  - noisy data: loose bounds per method (see noisyBound), and the seed's qualitative findings
//    (seedFindings): multistep more accurate than single-step at 20 % noise on average, direct
//    the most accurate, filtering helps the single-step method on the quadratic oscillator
//    and (at 1.5 Hz) hurts the multistep method on the drag oscillator.
//  - filtered data: least-squares ends against odd reflection on the same records
//    (noiseFreeFilteredData, filterEndsAndTheRecordStart), and the count of entries of the seed's
//    filtered tables that sysid estimates worse (filteredTablesAgainstTheSeed, the seed's numbers in
//    tests/validation/data/normann1989_tables.csv).
// The full tables (markdown) go to ${build}/tests/validation/seed004_equation_error_tables.md and
// into the test log; docs/validation/seed004.md compares them with the seed's.
#include "ValidationSupport.h"

#include "engine/data/Butterworth.h"
#include "engine/data/ZeroPhaseFilter.h"

#include <QtTest>

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <numeric>
#include <tuple>

using namespace sysid;
using validation::estimateOf;

namespace {

using Values = std::vector<std::pair<std::string, double>>;

// Unfiltered, then two zero-phase Butterworth low-passes of order 4: 1.5 Hz (9.4 rad/s, about
// twice the natural frequency 5 rad/s: "slightly above" it, as the seed), and 3 Hz (19 rad/s),
// which passes the quadratic term's 2-omega and the cubic and drag terms' 3-omega harmonics that
// the lower cutoff attenuates (see docs/validation/seed004.md). Each with the filter's ends chosen
// by least squares (sysid's default) and, for comparison, by odd reflection (SciPy's sosfiltfilt,
// sysid's filter before): the record starts at the impulse, and odd reflection bends it there.
constexpr int lowPassOrder = 4;
struct Filtering {
    double cutoffHz;  // 0: unfiltered
    data::FilterEnds ends;
};
constexpr std::array<Filtering, 5> filterings{{{0.0, data::FilterEnds::LeastSquares},
                                               {1.5, data::FilterEnds::LeastSquares},
                                               {3.0, data::FilterEnds::LeastSquares},
                                               {1.5, data::FilterEnds::Odd},
                                               {3.0, data::FilterEnds::Odd}}};
// Indices into filterings.
constexpr int unfiltered = 0, low15 = 1, low3 = 2, odd15 = 3, odd3 = 4;

QString filterLabel(int filter)
{
    const Filtering& f = filterings[static_cast<std::size_t>(filter)];
    if (f.cutoffHz == 0.0)
        return QStringLiteral("unfiltered");
    return QStringLiteral("filtered %1 Hz%2")
        .arg(f.cutoffHz)
        .arg(f.ends == data::FilterEnds::Odd ? QStringLiteral(", odd ends") : QString());
}

const std::array<double, 4> noiseLevels{0.0, 5.0, 10.0, 20.0};

enum class Method { Direct, SingleStep, Multistep };
const std::array<Method, 3> methods{Method::Direct, Method::SingleStep, Method::Multistep};

QString methodLabel(Method m)
{
    switch (m) {
    case Method::Direct: return QStringLiteral("direct");
    case Method::SingleStep: return QStringLiteral("single-step");
    case Method::Multistep: return QStringLiteral("multistep");
    }
    return {};
}

struct Case {
    QString label;
    Values truth;  // every parameter of the equations of motion
    Values start;  // the seed's starting values
};

struct Family {
    QString name;
    std::string modelText;
    std::vector<std::string> displacements;  // outputs the direct method fits
    Values initialTruth, initialStart;  // estimated initial values (direct method only)
    std::vector<Case> cases;
};

struct Row {
    QString family, label;
    Method method;
    double percent;
    int filter;  // index into filterings
    estimate::FitResult result;
    Values truth;
};

Case sdofCase(const QString& label, const Values& nonlinear, const Values& nonlinearStart)
{
    Case c{label, {{"gamma", 0.5}, {"Omega2", 25.0}}, {{"gamma", 0.35}, {"Omega2", 22.5}}};
    c.truth.insert(c.truth.end(), nonlinear.begin(), nonlinear.end());
    c.start.insert(c.start.end(), nonlinearStart.begin(), nonlinearStart.end());
    return c;
}

// The SDOF example with its velocity as a second output, as the equation-error methods need it.
Family sdofFamily(const QString& name, const std::string& file)
{
    return {name,
            validation::readText(validation::examplePath(file)) + "output v = u'\n",
            {"u"},
            {{"u'(0)", 5.0}},
            {{"u'(0)", 3.5}},
            {}};
}

std::vector<Family> families()
{
    std::vector<Family> all;
    // Tables 1, 7, 13 (and 4, 10, 16 filtered): alpha from the seed's starting values.
    auto quadratic = sdofFamily("quadratic", "sdof_quadratic.model");
    for (const auto& [a, a0] : std::vector<std::pair<double, double>>{{0.5, 1.0}, {1.5, 0.5}, {2.5, 1.5}, {5.0, 2.5}})
        quadratic.cases.push_back(sdofCase(QStringLiteral("alpha=%1").arg(a), {{"alpha", a}}, {{"alpha", a0}}));
    all.push_back(quadratic);
    // Tables 2, 8, 14 (5, 11, 17).
    auto qc = sdofFamily("quadratic+cubic", "sdof_quadratic_cubic.model");
    const double pairs[][4] = {
        {0.1, 0.5, 0.5, 1.0}, {0.5, 2.5, 1.0, 1.0}, {1.0, 2.5, 0.5, 1.0}, {1.0, 5.0, 0.5, 2.5}, {2.5, 5.0, 1.0, 2.5}};
    for (const auto& p : pairs)
        qc.cases.push_back(sdofCase(QStringLiteral("a1=%1 a2=%2").arg(p[0]).arg(p[1]),
                                    {{"alpha1", p[0]}, {"alpha2", p[1]}}, {{"alpha1", p[2]}, {"alpha2", p[3]}}));
    all.push_back(qc);
    // Tables 3, 9, 15 (6, 12, 18); the seed calls beta alpha.
    auto drag = sdofFamily("drag", "sdof_drag.model");
    for (const auto& [b, b0] : std::vector<std::pair<double, double>>{{0.5, 1.0}, {1.5, 0.5}, {2.5, 1.5}, {5.0, 2.5}})
        drag.cases.push_back(sdofCase(QStringLiteral("beta=%1").arg(b), {{"beta", b}}, {{"beta", b0}}));
    all.push_back(drag);
    // Tables 19-22: initial conditions known.
    Family twoDof{"2-DOF", validation::readText(validation::examplePath("two_dof_cubic.model")), {"u1", "u2"}, {}, {},
                  {}};
    twoDof.cases.push_back({QStringLiteral("seed ch. 5"),
                            {{"Omega1sq", 25},
                             {"gamma1", 0.35},
                             {"a1", 5},
                             {"a2", 0.5},
                             {"a3", 0.25},
                             {"a4", 3},
                             {"Omega2sq", 17},
                             {"gamma2", 0.25},
                             {"a5", 2.5},
                             {"a6", 0.75},
                             {"a7", 0.2},
                             {"a8", 5}},
                            {{"Omega1sq", 20},
                             {"gamma1", 0.5},
                             {"a1", 3},
                             {"a2", 0.2},
                             {"a3", 0.15},
                             {"a4", 4},
                             {"Omega2sq", 14},
                             {"gamma2", 0.55},
                             {"a5", 4.5},
                             {"a6", 0.35},
                             {"a7", 0.35},
                             {"a8", 2}}});
    all.push_back(twoDof);
    return all;
}

estimate::FitSettings settingsFor(Method m)
{
    estimate::FitSettings s;
    s.integrator = validation::fitIntegrator();
    s.equationError.simulateFit = false;
    switch (m) {
    case Method::Direct: s.method = estimate::EstimationMethod::OutputError; break;
    case Method::SingleStep:
        s.method = estimate::EstimationMethod::SingleStep;
        s.equationError.oneStep = estimate::EquationErrorFormula::Heun;
        break;
    case Method::Multistep:
        s.method = estimate::EstimationMethod::Multistep;
        s.equationError.multistep = estimate::EquationErrorFormula::NewtonCotes6;
        break;
    }
    return s;
}

estimate::Experiment lowPassed(estimate::Experiment e, const Filtering& filtering)
{
    if (filtering.cutoffHz == 0.0)
        return e;
    const double fs = 1.0 / (e.times[1] - e.times[0]);
    const auto sections = data::butterworthLowPass(lowPassOrder, filtering.cutoffHz, fs);
    for (Eigen::Index j = 0; j < e.measured.cols(); ++j) {
        const std::vector<double> column(e.measured.col(j).data(), e.measured.col(j).data() + e.measured.rows());
        const auto filtered = data::filtFilt(sections, column, filtering.ends);
        e.measured.col(j) = Eigen::Map<const Eigen::VectorXd>(filtered.data(), e.measured.rows());
    }
    return e;
}

// Noisy-data bounds: |estimate - truth| <= K * (p / 10) * max(|truth|, 1), plus on filtered data
// the filter's own bias (measured on the noise-free record of the same case and cutoff). They
// are loose on purpose: equation error on noisy states is biased (errors in variables), so
// they catch a broken estimator (divergence, wrong sign of a dominant term, a factor off),
// not the size of the bias. K is about twice the largest value measured over all cases,
// noise levels and filters here (in brackets: the measured maxima; nonlinear = the polynomial,
// drag and cross-term coefficients):
//               frequency      damping        nonlinear SDOF   nonlinear 2-DOF   Q
//  direct       0.03 (0.012)   0.2 (0.089)    0.6 (0.30)       3 (1.34)          0.05 (0.016)
//  multistep    0.1 (0.053)    0.15 (0.077)   3 (1.55)         6 (2.73)          -
//  single-step  0.3 (0.13)     2 (0.95)       16 (7.9)         20 (10.2)         -
// (The single-step bounds include Heun's own truncation bias, 28 % on gamma for drag beta = 5.)
// The direct method is also held to 4 of its reported standard deviations on unfiltered data.
// Relative accuracy on noise-free, unfiltered data (see the header; measured maxima in brackets):
//  direct: 1e-6 (data integrated to rtol 1e-11, the fit to 1e-10: 1.3e-9);
//  multistep (Newton-Cotes 6): 1e-6 on the smooth cases (SDOF 5.3e-9, 2-DOF 2.3e-7 on the small
//    cross term a3 = 0.25: the cubic terms put a 3-omega harmonic near 18 rad/s into the states,
//    omega h = 0.27; halving h divides the bias by ~2^8, multistepBiasVanishesWithTheStep);
//    5e-3 on drag (2.3e-3 on gamma for beta = 5: v|v| has a jump in its second derivative at
//    every velocity reversal, and 2 beta |v| h = 0.75 at the start, so the formula's order is
//    not reached at h = 5/334; the bias still vanishes as h -> 0, by ~2^5.5 per halving);
//  single-step (Heun): its O(h^2) truncation bias (singleStepBiasIsSecondOrder checks the
//    order): 1e-2 on the smooth SDOF cases (5.1e-3, on alpha1 = 0.1), 5e-2 on the 2-DOF
//    system (2.1e-2, on a7 = 0.2), 0.35 on drag (0.28 on gamma for beta = 5, where
//    2 beta |v| h = 0.75; the seed's Table 9 prints the same gamma 0.36 and beta 5.31).
double noiseFreeTolerance(Method m, const QString& family)
{
    switch (m) {
    case Method::Direct: return 1e-6;
    case Method::Multistep: return family == "drag" ? 5e-3 : 1e-6;
    case Method::SingleStep: return family == "drag" ? 0.35 : family == "2-DOF" ? 5e-2 : 1e-2;
    }
    return 0.0;
}

double noisyBound(Method m, const QString& family, const std::string& name, double truth, double percent)
{
    const int column = name.rfind("Omega", 0) == 0 ? 0
        : name.rfind("gamma", 0) == 0              ? 1
        : name == "u'(0)"                          ? 4
        : family == "2-DOF"                        ? 3
                                                   : 2;
    static const double k[3][5] = {{0.03, 0.2, 0.6, 3, 0.05}, {0.3, 2, 16, 20, 0}, {0.1, 0.15, 3, 6, 0}};
    return k[static_cast<int>(m)][column] * percent / 10.0 * std::max(std::abs(truth), 1.0);
}

}  // namespace

class TestEquationErrorValidation : public QObject {
    Q_OBJECT

    std::vector<Row> rows_;
    // Per seed table: its noisy entries and how many of them sysid estimates worse (see
    // filteredTablesAgainstTheSeed), per filtering (unfiltered tables: index 0 only).
    struct SeedCount {
        bool filtered = false;
        int entries = 0;
        std::array<int, filterings.size()> worse{};
    };
    std::map<int, SeedCount> seedCounts_;
    std::map<QString, double> filterBias_;  // family|method|parameter -> largest relative bias of filtering clean data

    static std::vector<double> valuesFor(const eval::CompiledModelSource& src, const Values& a, const Values& b)
    {
        Values all = a;
        all.insert(all.end(), b.begin(), b.end());
        return validation::valuesWith(src, all);
    }

    // Every method on one case at one noise level, unfiltered and filtered.
    void runCase(const Family& f, const std::shared_ptr<const eval::CompiledModelSource>& src, const Case& c,
                 double percent)
    {
        const auto times = validation::seed004Times();
        const auto clean = valuesFor(*src, c.truth, f.initialTruth);
        const auto record = validation::simulatedRecord(
            src, clean, times, percent, validation::seedFor(f.name + "|" + c.label), data::NoiseDistribution::Uniform);
        for (int filter = 0; filter < int(filterings.size()); ++filter) {
            const auto data = lowPassed(record, filterings[static_cast<std::size_t>(filter)]);
            for (const Method m : methods) {
                auto experiment = data;
                Values truth = c.truth;
                if (m == Method::Direct) {
                    for (std::size_t j = 0; j < src->outputNames.size(); ++j)
                        experiment.outputMeasured[j] = std::find(f.displacements.begin(), f.displacements.end(),
                                                                 src->outputNames[j]) != f.displacements.end();
                    truth.insert(truth.end(), f.initialTruth.begin(), f.initialTruth.end());
                }
                const auto result = validation::fitOrReport(src, valuesFor(*src, c.start, f.initialStart), {experiment},
                                                            settingsFor(m));
                rows_.push_back({f.name, c.label, m, percent, filter, result, truth});
            }
        }
    }

    static QString cell(const estimate::FitResult& r, const std::string& name, double truth)
    {
        for (const auto& p : r.parameters)
            if (p.name == name)
                return QStringLiteral("%1 (%2)").arg(QString::number(p.value, 'f', 3),
                                                     validation::errorText(p.value, truth));
        return QStringLiteral("-");
    }

    // One markdown table per family and filtering: estimate (% error) per parameter.
    QString tables() const
    {
        QString out =
            QStringLiteral(
                "# Seed 004: equation-error estimators vs output error (sysid)\n\n"
                "Record 5 s, 335 samples; uniform noise +-p % of each signal's RMS (one realisation per case, "
                "scaled by p); filtered: zero-phase Butterworth order %1 (forward-backward; the ends by least squares, "
                "or by odd reflection where it says 'odd ends'). "
                "Cells: estimate (% error). direct = output error on the displacements (estimates Q = u'(0) too); "
                "single-step = Heun; multistep = Newton-Cotes 6-step. 'it' = iterations, '!' = not converged.\n")
                .arg(lowPassOrder);
        QStringList familyOrder;
        for (const auto& r : rows_)
            if (!familyOrder.contains(r.family))
                familyOrder << r.family;
        for (const auto& family : familyOrder)
            for (int filter = 0; filter < int(filterings.size()); ++filter) {
                std::vector<std::string> names;
                for (const auto& r : rows_)
                    if (r.family == family)
                        for (const auto& [n, v] : r.truth)
                            if (std::find(names.begin(), names.end(), n) == names.end())
                                names.push_back(n);
                out += QStringLiteral("\n## %1, %2\n\n| case | method | noise |").arg(family, filterLabel(filter));
                QString rule = QStringLiteral("|---|---|---|");
                for (const auto& n : names) {
                    out += QStringLiteral(" %1 |").arg(QString::fromStdString(n));
                    rule += QStringLiteral("---|");
                }
                out += QStringLiteral(" it |\n") + rule + QStringLiteral("---|\n");
                for (const auto& r : rows_) {
                    if (r.family != family || r.filter != filter)
                        continue;
                    out += QStringLiteral("| %1 | %2 | %3 % |").arg(r.label, methodLabel(r.method)).arg(r.percent);
                    for (const auto& n : names) {
                        const auto t =
                            std::find_if(r.truth.begin(), r.truth.end(), [&](const auto& p) { return p.first == n; });
                        out += QStringLiteral(" %1 |").arg(t == r.truth.end() ? QStringLiteral("-")
                                                                              : cell(r.result, n, t->second));
                    }
                    out += QStringLiteral(" %1%2 |\n").arg(r.result.iterations).arg(r.result.converged() ? "" : " !");
                }
            }
        return out;
    }

    // Mean over the family's cases and parameters of |relative error| at p % noise.
    double meanError(const QString& family, Method m, double percent, int filter) const
    {
        double sum = 0.0;
        int count = 0;
        for (const auto& r : rows_) {
            if (r.family != family || r.method != m || r.percent != percent || r.filter != filter)
                continue;
            for (const auto& [n, v] : r.truth) {
                if (n == "u'(0)")
                    continue;  // only the direct method estimates it
                sum += validation::relativeError(estimateOf(r.result, n).value, v);
                ++count;
            }
        }
        return count ? sum / count : std::numeric_limits<double>::quiet_NaN();
    }

    // Reads the seed's noisy entries and counts where sysid is worse (see filteredTablesAgainstTheSeed);
    // returns the markdown section for the tables file. A seed entry without its sysid estimate fails.
    QString compareWithTheSeed()
    {
        const std::string path = std::string(SYSID_SOURCE_DIR) + "/tests/validation/data/normann1989_tables.csv";
        std::ifstream in(path);
        if (!in)
            throw std::runtime_error("cannot read " + path);
        std::string line;
        bool header = true;
        while (std::getline(in, line)) {
            if (line.empty() || line[0] == '#')
                continue;
            if (header) {
                header = false;
                continue;
            }
            const QStringList cells = QString::fromStdString(line).split(QLatin1Char(','));
            if (cells.size() != 6)
                throw std::runtime_error("bad line in " + path + ": " + line);
            const int table = cells[0].toInt();
            const Method method = table <= 6                  ? Method::Direct
                : (table <= 12 || table == 19 || table == 20) ? Method::SingleStep
                                                              : Method::Multistep;
            const bool filtered = (table >= 4 && table <= 6) || (table >= 10 && table <= 12) ||
                (table >= 16 && table <= 18) || table == 20 || table == 22;
            const double percent = cells[3].toDouble();
            const std::string name = cells[4].toStdString();
            const double seedValue = cells[5].toDouble();
            SeedCount& count = seedCounts_[table];
            count.filtered = filtered;
            ++count.entries;
            for (int filter = 0; filter < int(filterings.size()); ++filter) {
                if ((filter != unfiltered) != filtered)
                    continue;
                const auto row = std::find_if(rows_.begin(), rows_.end(), [&](const Row& r) {
                    return r.family == cells[1] && r.label == cells[2] && r.method == method && r.percent == percent &&
                        r.filter == filter;
                });
                if (row == rows_.end())
                    throw std::runtime_error("no sysid row for " + line);
                const auto truth =
                    std::find_if(row->truth.begin(), row->truth.end(), [&](const auto& p) { return p.first == name; });
                if (truth == row->truth.end())
                    throw std::runtime_error("no parameter " + name + " for " + line);
                const double sysidError = 100 * std::abs(estimateOf(row->result, name).value / truth->second - 1);
                const double seedError = 100 * std::abs(seedValue / truth->second - 1);
                if (sysidError > seedError + 1)
                    ++count.worse[static_cast<std::size_t>(filter)];
            }
        }
        QString out = QStringLiteral(
            "\n## Entries worse than the seed's\n\nNoisy entries of each table of Normann (1989) where sysid's "
            "|error| exceeds the seed's by more than one percentage point (unfiltered tables against sysid "
            "unfiltered, filtered tables against each of sysid's filterings, same noise).\n\n"
            "| table | entries | unfiltered | 1.5 Hz | 3 Hz | 1.5 Hz, odd ends | 3 Hz, odd ends |\n"
            "|---|---|---|---|---|---|---|\n");
        for (const auto& [table, count] : seedCounts_) {
            out += QStringLiteral("| %1 | %2 |").arg(table).arg(count.entries);
            for (int filter = 0; filter < int(filterings.size()); ++filter)
                out += (filter != unfiltered) == count.filtered
                    ? QStringLiteral(" %1 |").arg(count.worse[static_cast<std::size_t>(filter)])
                    : QStringLiteral(" |");
            out += QLatin1Char('\n');
        }
        return out;
    }

    // One fit of a case: noise realisation `seed`, `filtering`, the samples before `from` dropped
    // after filtering.
    static estimate::FitResult fitOnce(const Family& f, const Case& c, Method m, double percent, std::uint64_t seed,
                                       const Filtering& filtering, double from = 0.0)
    {
        const auto src = validation::compiledText(f.modelText, f.name.toStdString());
        auto e = lowPassed(validation::simulatedRecord(src, valuesFor(*src, c.truth, f.initialTruth),
                                                       validation::seed004Times(), percent, seed,
                                                       data::NoiseDistribution::Uniform),
                           filtering);
        if (from > 0) {
            const auto first = static_cast<Eigen::Index>(std::lround(from / (e.times[1] - e.times[0])));
            e.times.erase(e.times.begin(), e.times.begin() + first);
            e.measured = Eigen::MatrixXd(e.measured.bottomRows(e.measured.rows() - first));
        }
        if (m == Method::Direct)
            for (std::size_t j = 0; j < src->outputNames.size(); ++j)
                e.outputMeasured[j] = std::find(f.displacements.begin(), f.displacements.end(), src->outputNames[j]) !=
                    f.displacements.end();
        return validation::fitOrReport(src, valuesFor(*src, c.start, f.initialStart), {e}, settingsFor(m));
    }

    // Fits a noise-free record of `samples` samples over the same 5 s.
    static estimate::FitResult fitOnGrid(Method m, const Family& f, const Case& c, std::size_t samples)
    {
        const auto src = validation::compiledText(f.modelText, f.name.toStdString());
        const auto times = integrate::uniformGrid(0.0, 5.0, 5.0 / static_cast<double>(samples - 1));
        const auto record = validation::simulatedRecord(src, valuesFor(*src, c.truth, f.initialTruth), times, 0.0, 1,
                                                        data::NoiseDistribution::Uniform);
        return validation::fitOrReport(src, valuesFor(*src, c.start, f.initialStart), {record}, settingsFor(m));
    }

private slots:
    void initTestCase()
    {
        for (const auto& f : families()) {
            const auto src = validation::compiledText(f.modelText, f.name.toStdString());
            for (const auto& c : f.cases)
                for (const double p : noiseLevels)
                    runCase(f, src, c, p);
        }
        const QString text = tables() + compareWithTheSeed();
        const std::string path = std::string(SYSID_BINARY_DIR) + "/tests/validation/seed004_equation_error_tables.md";
        std::ofstream(path) << text.toStdString();
        qInfo("%s\n(written to %s)", qPrintable(text), path.c_str());
    }

    void everyFitConverges()
    {
        for (const auto& r : rows_)
            QVERIFY2(r.result.converged(),
                     qPrintable(QStringLiteral("%1 %2, %3, %4 %, %5: %6")
                                    .arg(r.family, r.label, methodLabel(r.method))
                                    .arg(r.percent)
                                    .arg(filterLabel(r.filter), QString::fromStdString(r.result.termination.message))));
    }

    void noiseFreeDataGiveTheExactParameters()
    {
        std::map<QString, double> largest;  // method, family -> largest relative error
        for (const auto& r : rows_) {
            if (r.percent != 0.0 || r.filter != 0 || !r.result.converged())
                continue;
            const double tolerance = noiseFreeTolerance(r.method, r.family);
            for (const auto& [n, v] : r.truth) {
                const double e = validation::relativeError(estimateOf(r.result, n).value, v);
                auto& worst = largest[methodLabel(r.method) + ", " + r.family];
                worst = std::max(worst, e);
                QVERIFY2(e < tolerance,
                         qPrintable(QStringLiteral("%1 %2, %3: %4 = %5, relative error %6 > %7")
                                        .arg(r.family, r.label, methodLabel(r.method), QString::fromStdString(n))
                                        .arg(estimateOf(r.result, n).value, 0, 'g', 10)
                                        .arg(e)
                                        .arg(tolerance)));
            }
        }
        for (const auto& [key, e] : largest)
            qInfo("noise-free data, largest relative error, %s: %.2e", qPrintable(key), e);
    }

    // Noise-free data through the filters: the seed's filtered 0 % rows are exact. Least-squares ends
    // no longer bend the record's start, so on the impulse-started SDOF oscillators they are less
    // than half as far off as odd ends for every method and cutoff (measured: 0.15-0.33 of it at
    // 1.5 Hz, at most 0.2 at 3 Hz), and at 3 Hz, which passes the response's harmonics, nearly
    // exact (bounds about twice the measured maxima, in brackets):
    //                quadratic        quadratic+cubic   drag
    //   direct       5e-3 (7.4e-4)    5e-3 (2.0e-3)     3e-2 (1.3e-2)
    //   multistep    5e-3 (1.7e-3)    7e-2 (3.4e-2)     0.12 (6.0e-2)
    //   single-step  1e-2 (4.9e-3)    8e-2 (4.0e-2)     0.6 (0.40; Heun's own bias on drag is 0.28)
    // At 1.5 Hz the low-pass attenuates the quadratic term's 2-omega harmonic (|H|^2 = 0.38) and the
    // cubic terms' 3-omega one, and on drag beta = 5 the start's content above the cutoff: 8 % on
    // alpha of the quadratic oscillator, 1.0 on drag (multistep). The 2-DOF system starts from rest
    // at a displacement, not at an impulse; its small cross-term coefficients stay far off through
    // either filter (printed, not bounded).
    void noiseFreeFilteredData()
    {
        std::map<std::tuple<int, Method, QString>, double> largest;  // filter, method, family -> relative error
        for (const auto& r : rows_) {
            if (r.percent != 0.0 || r.filter == unfiltered)
                continue;
            for (const auto& [n, v] : r.truth) {
                auto& worst = largest[{r.filter, r.method, r.family}];
                worst = std::max(worst, validation::relativeError(estimateOf(r.result, n).value, v));
            }
        }
        for (const auto& [key, e] : largest)
            qInfo("noise-free data, largest relative error, %s, %s, %s: %.2e",
                  qPrintable(filterLabel(std::get<0>(key))), qPrintable(methodLabel(std::get<1>(key))),
                  qPrintable(std::get<2>(key)), e);
        const std::map<std::pair<Method, QString>, double> atThreeHz{{{Method::Direct, "quadratic"}, 5e-3},
                                                                     {{Method::Direct, "quadratic+cubic"}, 5e-3},
                                                                     {{Method::Direct, "drag"}, 3e-2},
                                                                     {{Method::Multistep, "quadratic"}, 5e-3},
                                                                     {{Method::Multistep, "quadratic+cubic"}, 7e-2},
                                                                     {{Method::Multistep, "drag"}, 0.12},
                                                                     {{Method::SingleStep, "quadratic"}, 1e-2},
                                                                     {{Method::SingleStep, "quadratic+cubic"}, 8e-2},
                                                                     {{Method::SingleStep, "drag"}, 0.6}};
        for (const auto& [what, bound] : atThreeHz) {
            const double e = largest.at({low3, what.first, what.second});
            QVERIFY2(e < bound,
                     qPrintable(QStringLiteral("3 Hz, %1, %2: %3 >= %4")
                                    .arg(methodLabel(what.first), what.second)
                                    .arg(e)
                                    .arg(bound)));
            for (const auto& [leastSquares, odd] : {std::pair{low15, odd15}, std::pair{low3, odd3}}) {
                const double ls = largest.at({leastSquares, what.first, what.second});
                const double reflected = largest.at({odd, what.first, what.second});
                QVERIFY2(ls < reflected / 2,
                         qPrintable(QStringLiteral("%1, %2: least-squares ends %3, odd ends %4")
                                        .arg(filterLabel(leastSquares), methodLabel(what.first) + ", " + what.second)
                                        .arg(ls)
                                        .arg(reflected)));
            }
        }
    }

    void noisyDataWithinLooseBounds()
    {
        for (const auto& r : rows_) {
            if (r.percent == 0.0 || !r.result.converged())
                continue;
            for (const auto& [n, v] : r.truth) {
                const double value = estimateOf(r.result, n).value;
                double bound = noisyBound(r.method, r.family, n, v, r.percent);
                if (r.filter != 0)
                    bound += filterBias(r.family, r.method, r.filter, n) * std::abs(v);
                const double sd = estimateOf(r.result, n).sd;
                if (r.method == Method::Direct && r.filter == 0)
                    QVERIFY2(std::abs(value - v) < 4 * sd,
                             qPrintable(QStringLiteral("%1 %2, direct, %3 %: %4 = %5 +- %6, more than 4 sd from %7")
                                            .arg(r.family, r.label)
                                            .arg(r.percent)
                                            .arg(QString::fromStdString(n))
                                            .arg(value)
                                            .arg(sd)
                                            .arg(v)));
                QVERIFY2(std::abs(value - v) <= bound,
                         qPrintable(QStringLiteral("%1 %2, %3, %4 % %5: %6 = %7 (truth %8), off by more than %9")
                                        .arg(r.family, r.label, methodLabel(r.method))
                                        .arg(r.percent)
                                        .arg(filterLabel(r.filter), QString::fromStdString(n))
                                        .arg(value)
                                        .arg(v)
                                        .arg(bound)));
            }
        }
    }

    // The seed's conclusions (ch. 3-4, 6-7): at 20 % noise the multistep estimates are more
    // accurate than the single-step ones, and the direct method's the most accurate; low-pass
    // filtering improves the single-step estimates of the quadratic oscillator (Table 7 vs 10)
    // and makes the drag oscillator's worse (Tables 15 vs 18, 3 vs 6).
    void seedFindings()
    {
        const QStringList families{"quadratic", "quadratic+cubic", "drag", "2-DOF"};
        QString head = QStringLiteral("mean |relative error| at 20 % noise (");
        for (int filter = 0; filter < int(filterings.size()); ++filter)
            head += (filter ? QStringLiteral(" / ") : QString()) + filterLabel(filter);
        QStringList lines{head + QStringLiteral("):")};
        for (const auto& family : families) {
            QString line = QStringLiteral("  %1:").arg(family.leftJustified(16));
            for (const Method m : methods) {
                line += QStringLiteral(" %1").arg(methodLabel(m));
                for (int filter = 0; filter < int(filterings.size()); ++filter)
                    line += QStringLiteral("%1%2")
                                .arg(filter ? " / " : " ")
                                .arg(meanError(family, m, 20, filter), 0, 'f', 3);
                line += QLatin1Char(',');
            }
            lines << line;
        }
        qInfo("%s", qPrintable(lines.join('\n')));
        for (const auto& family : families) {
            QVERIFY2(meanError(family, Method::Multistep, 20, 0) < meanError(family, Method::SingleStep, 20, 0),
                     qPrintable(family + ": multistep not more accurate than single-step at 20 % noise"));
            QVERIFY2(meanError(family, Method::Direct, 20, 0) < meanError(family, Method::Multistep, 20, 0),
                     qPrintable(family + ": direct not more accurate than multistep at 20 % noise"));
        }
        for (int filter = 1; filter < int(filterings.size()); ++filter)
            QVERIFY2(meanError("quadratic", Method::SingleStep, 20, filter) <
                         meanError("quadratic", Method::SingleStep, 20, 0),
                     qPrintable("quadratic: " + filterLabel(filter) + " does not improve the single-step estimates"));
        // The drag oscillator's start is faster than a 1.5 Hz filter passes (v' = -130 at t = 0 for
        // beta = 5): filtering there makes its estimates worse, whatever the ends (at 3 Hz with
        // least-squares ends it is neutral: 0.070 against 0.066 unfiltered, measured).
        for (const int filter : {low15, odd15})
            QVERIFY2(meanError("drag", Method::Multistep, 20, filter) > meanError("drag", Method::Multistep, 20, 0),
                     qPrintable("drag: " + filterLabel(filter) + " does not make the multistep estimates worse"));
    }

    // The noisy entries of the seed's Tables 1-22 (tests/validation/data/normann1989_tables.csv)
    // where sysid's |error| exceeds the seed's by more than one percentage point: the unfiltered
    // tables against sysid unfiltered, the filtered tables against each of sysid's filterings
    // (counted in the same run, so that the ends' effect is measured on the same noise).
    // Measured: 390 noisy entries in the filtered tables; worse 161 (1.5 Hz) and 104 (3 Hz) with
    // least-squares ends, 296 and 160 with odd ends; the unfiltered tables, 119 of 390 (one noise
    // draw against another).
    void filteredTablesAgainstTheSeed()
    {
        int entries = 0, unfilteredEntries = 0, unfilteredWorse = 0;
        std::array<int, filterings.size()> worse{};
        for (const auto& [table, count] : seedCounts_) {
            if (!count.filtered) {
                unfilteredEntries += count.entries;
                unfilteredWorse += count.worse[unfiltered];
                continue;
            }
            entries += count.entries;
            for (std::size_t f = 1; f < filterings.size(); ++f)
                worse[f] += count.worse[f];
        }
        qInfo("filtered tables: %d noisy entries; worse than the seed: %d (1.5 Hz), %d (3 Hz); with odd ends %d "
              "(1.5 Hz), %d (3 Hz); unfiltered tables: %d of %d",
              entries, worse[low15], worse[low3], worse[odd15], worse[odd3], unfilteredWorse, unfilteredEntries);
        QVERIFY(entries > 0 && unfilteredEntries > 0);
        QVERIFY2(worse[low15] < worse[odd15] * 2 / 3, "least-squares ends are not clearly better than odd at 1.5 Hz");
        QVERIFY2(worse[low3] < worse[odd3] * 3 / 4, "least-squares ends are not clearly better than odd at 3 Hz");
        // At 3 Hz the filtered comparison is no worse than the unfiltered one, which differs from the
        // seed only by the noise realisation.
        QVERIFY2(worse[low3] * unfilteredEntries <= unfilteredWorse * entries,
                 "3 Hz with least-squares ends: more entries worse than the seed than without filtering");
    }

    // Heun's bias on noise-free data is its truncation error, of order h^2 with an h^3 term next:
    // halving the step divides it by about 4, Richardson extrapolation (4 theta(h/2) - theta(h)) / 3
    // removes the h^2 term and leaves a third-order remainder (divided by about 8 per halving).
    void singleStepBiasIsSecondOrder()
    {
        const auto all = families();
        const Family& quadratic = all[0];
        const Case& c = quadratic.cases[2];  // alpha = 2.5
        const auto coarse = fitOnGrid(Method::SingleStep, quadratic, c, 335);
        const auto fine = fitOnGrid(Method::SingleStep, quadratic, c, 669);
        const auto finest = fitOnGrid(Method::SingleStep, quadratic, c, 1337);
        QVERIFY(coarse.converged() && fine.converged() && finest.converged());
        for (const auto& [n, v] : c.truth) {
            const double t1 = estimateOf(coarse, n).value, t2 = estimateOf(fine, n).value,
                         t3 = estimateOf(finest, n).value;
            const double e1 = t1 - v, e2 = t2 - v, e3 = t3 - v;
            const double r1 = ((4 * t2 - t1) / 3 - v) / v, r2 = ((4 * t3 - t2) / 3 - v) / v;
            qInfo(
                "Heun bias of %s: h %.3e, h/2 %.3e, h/4 %.3e (ratios %.3f, %.3f); Richardson h,h/2 %.2e, h/2,h/4 %.2e",
                n.c_str(), e1 / v, e2 / v, e3 / v, e1 / e2, e2 / e3, r1, r2);
            QVERIFY2(e1 / e2 > 3.5 && e1 / e2 < 4.5,
                     qPrintable(QString::fromStdString(n) + ": bias ratio h : h/2 not ~4"));
            QVERIFY2(e2 / e3 > 3.5 && e2 / e3 < 4.5,
                     qPrintable(QString::fromStdString(n) + ": bias ratio h/2 : h/4 not ~4"));
            QVERIFY2(std::abs(r1) < 3e-5,
                     qPrintable(QString::fromStdString(n) + ": Richardson (h, h/2) not exact to 3e-5"));
            QVERIFY2(std::abs(r2) < std::abs(r1) / 5,
                     qPrintable(QString::fromStdString(n) + ": Richardson remainder not of third order"));
        }
    }

    // The multistep bias on noise-free data of the drag oscillator (beta = 5) and of the 2-DOF
    // system, above 1e-6 at h = 5/334 (see noiseFreeTolerance), is truncation error: it vanishes
    // as the step is refined (to the data's own integration accuracy, ~1e-8).
    void multistepBiasVanishesWithTheStep_data()
    {
        QTest::addColumn<int>("family");
        QTest::addColumn<int>("caseIndex");
        QTest::newRow("drag beta=5") << 2 << 3;
        QTest::newRow("2-DOF") << 3 << 0;
    }

    void multistepBiasVanishesWithTheStep()
    {
        QFETCH(int, family);
        QFETCH(int, caseIndex);
        const auto all = families();
        const Family& f = all[static_cast<std::size_t>(family)];
        const Case& c = f.cases[static_cast<std::size_t>(caseIndex)];
        std::vector<estimate::FitResult> fits;
        for (const std::size_t samples : {335, 669, 1337})
            fits.push_back(fitOnGrid(Method::Multistep, f, c, samples));
        for (const auto& [n, v] : c.truth) {
            std::vector<double> e;
            for (const auto& fit : fits)
                e.push_back(validation::relativeError(estimateOf(fit, n).value, v));
            qInfo("Newton-Cotes-6 bias of %s (%s), h = 5/334, h/2, h/4: %.2e %.2e %.2e (ratios %.1f %.1f)", n.c_str(),
                  qPrintable(f.name), e[0], e[1], e[2], e[0] / e[1], e[1] / e[2]);
            for (std::size_t k = 1; k < e.size(); ++k)
                QVERIFY2(e[k] < e[k - 1] / 4 || e[k] < 1e-8,
                         qPrintable(QString::fromStdString(n) + ": the bias does not shrink with the step"));
        }
    }

    // Why the single-step method is so noise-sensitive (seed ch. 3.4) and the multistep one is
    // not, on the damping: in Heun's velocity residual -v_{i+1} + v_i + h F(v_i, ...) the noise e_i
    // of v_i is both in the regressor (-2 gamma h v_i) and in the response, so least squares
    // finds -2 gamma h - sigma^2 / <v^2>, i.e. gamma + (p/100)^2 / (6 h) for uniform noise of
    // +-p % of the RMS (sigma^2 = (p/100)^2 RMS^2 / 3); 0.111 at 10 % and 0.445 at 20 %
    // (errors in variables: Fuller, Measurement Error Models, sec. 1.1). The seed's Table 7
    // has gamma = 0.62 and 0.93 in every case: exactly 0.5 + 0.11 and 0.5 + 0.43. The six-step
    // formula weights v_{i-6} and v_i equally (41/840 each), so the covariance cancels and the
    // first-order bias vanishes. Checked as the mean over 20 noise realisations (+-3 standard
    // errors) on the quadratic oscillator, alpha = 0.5.
    void dampingBiasIsErrorsInVariables_data()
    {
        QTest::addColumn<int>("method");
        QTest::addColumn<double>("percent");
        QTest::addColumn<double>("expectedBias");
        const double h = 5.0 / 334.0;
        QTest::newRow("single-step 10%") << int(Method::SingleStep) << 10.0 << 0.01 / (6 * h);
        QTest::newRow("single-step 20%") << int(Method::SingleStep) << 20.0 << 0.04 / (6 * h);
        QTest::newRow("multistep 20%") << int(Method::Multistep) << 20.0 << 0.0;
    }

    void dampingBiasIsErrorsInVariables()
    {
        QFETCH(int, method);
        QFETCH(double, percent);
        QFETCH(double, expectedBias);
        const auto all = families();
        const Case& c = all[0].cases[0];
        std::vector<double> bias;
        for (std::uint64_t seed = 1; seed <= 20; ++seed)
            bias.push_back(
                estimateOf(fitOnce(all[0], c, Method(method), percent, seed, filterings[unfiltered]), "gamma").value -
                0.5);
        const double mean = std::accumulate(bias.begin(), bias.end(), 0.0) / 20;
        double sq = 0;
        for (const double b : bias)
            sq += (b - mean) * (b - mean);
        const double se = std::sqrt(sq / 19 / 20);
        qInfo("gamma bias over 20 realisations: %.3f +- %.3f (standard error), errors-in-variables prediction %.3f",
              mean, se, expectedBias);
        QVERIFY2(std::abs(mean - expectedBias) < 3 * se, "the mean gamma bias is not the errors-in-variables bias");
    }

    // Why filtering with odd ends hurt, and that least-squares ends do not: the record starts at the
    // impulse, and odd reflection about the first sample continues v(t) = Q cos(...) as 2Q - v(-t),
    // which has the opposite curvature: v'' jumps by 2 Omega^2 Q = 250 at t = 0, and a low-pass of
    // bandwidth wc turns that into an error of order 250 / wc^2 in the velocity over the first
    // ~1/fc seconds. With odd ends, dropping the first 0.75 s after filtering removes most of the
    // bias of the equation-error estimates from clean data; with least-squares ends the whole
    // record is as good as the trimmed one (the ends no longer bias). What is left at 1.5 Hz is the
    // attenuation of the quadratic term's 2-omega harmonic (10 rad/s, |H|^2 = 0.38 at 1.5 Hz, 0.996
    // at 3 Hz).
    void filterEndsAndTheRecordStart_data()
    {
        QTest::addColumn<int>("leastSquares");
        QTest::addColumn<int>("odd");
        QTest::newRow("1.5 Hz") << low15 << odd15;
        QTest::newRow("3 Hz") << low3 << odd3;
    }

    void filterEndsAndTheRecordStart()
    {
        QFETCH(int, leastSquares);
        QFETCH(int, odd);
        const auto all = families();
        const Case& c = all[0].cases[0];  // quadratic, alpha = 0.5
        const auto alphaError = [&](Method m, int filter, double from) {
            const auto& filtering = filterings[static_cast<std::size_t>(filter)];
            return validation::relativeError(estimateOf(fitOnce(all[0], c, m, 0, 1, filtering, from), "alpha").value,
                                             0.5);
        };
        for (const Method m : {Method::SingleStep, Method::Multistep}) {
            const double oddFull = alphaError(m, odd, 0), oddTrimmed = alphaError(m, odd, 0.75);
            const double full = alphaError(m, leastSquares, 0), trimmed = alphaError(m, leastSquares, 0.75);
            qInfo("%s, noise-free data low-passed at %g Hz: alpha off by %.1f %% (odd ends) and %.1f %% (least-squares "
                  "ends) from the whole record, %.1f %% and %.1f %% without its first 0.75 s",
                  qPrintable(methodLabel(m)), filterings[static_cast<std::size_t>(odd)].cutoffHz, 100 * oddFull,
                  100 * full, 100 * oddTrimmed, 100 * trimmed);
            QVERIFY2(oddTrimmed < oddFull / 4,
                     "odd ends: dropping the record's start does not remove most of the bias");
            QVERIFY2(full < oddFull / 4, "least-squares ends do not remove most of the odd ends' bias");
            QVERIFY2(full < trimmed + 0.05, "least-squares ends: the record's start still biases the estimate");
        }
    }

private:
    // The relative bias filtering adds on noise-free data (largest over the family's cases).
    double filterBias(const QString& family, Method m, int filter, const std::string& name) const
    {
        double largest = 0.0;
        for (const auto& r : rows_)
            if (r.family == family && r.method == m && r.percent == 0.0 && r.filter == filter)
                for (const auto& [n, v] : r.truth)
                    if (n == name)
                        largest = std::max(largest, validation::relativeError(estimateOf(r.result, n).value, v));
        return largest;
    }
};

QTEST_GUILESS_MAIN(TestEquationErrorValidation)
#include "test_equation_error_validation.moc"
