// Peer reference (not sysid code, not built with it; run_long_fit_benchmark.sh builds it): the output-error fit
// of bench_forced_duffing_long with SUNDIALS CVODES (Debian libsundials-dev) forward sensitivities:
//   x' = v,  v' = B u(t) - c v - k x - a x^3,  x(0) = x0, v(0) = v0,  output x,
//   unknowns c, k, a, B, x0, v0 (six), from the same CSV (t, u, x: bench_forced_duffing_long --write DIR)
//   and the same start (c, k, a, B, x0, v0) = (2.4, 800, 6000, 40, 0, 0).
// The input u is read as sysid reads a sampled input: linear between its samples, with a moving index (the
// interval of the sample the integration is heading for). Its slope jumps at every sample, so CVODES is
// stopped exactly on each sample (CVodeSetStopTime, CVODES' tstop) and never steps across one, which is
// what sysid's integrators do there; between samples the piece of the interval is held (and extended, should
// an evaluation fall a rounding beyond it). Without the stops the error test sees the kinks.
// CVODES: CV_ADAMS (--lmm bdf), Newton with the dense direct solver and the analytic 2x2 Jacobian,
// CVodeSensInit with the analytic sensitivity right-hand side, CV_STAGGERED (--ism simultaneous), fused
// vector operations, rtol 1e-8, atol 1e-10 on states and sensitivities (CVodeSensSStolerances, inside the
// error test: the accuracy of sysid's augmented system), --sens-tol off leaves them out (errconS).
// Levenberg-Marquardt in Eigen as in ../../../shared/peers/cvodes_sdof_fit.cpp (Marquardt scaling, Nielsen's
// damping update, every trial integrated once with sensitivities); stop when the relative cost change of a
// trial is at most --ftol (1e-12, sysid's cost tolerance) or after --max-iter trials. Cost 1/2 sum (x_i - d_i)^2.
// Timing: the solve only, median of --repeat runs; the process's peak resident memory (VmHWM) is printed.
//
// Build: see run_long_fit_benchmark.sh. Run: ./cvodes_forced_duffing_fit --data DIR/forced_duffing_long.csv
//        [--repeat N] [--lmm adams|bdf] [--ism staggered|simultaneous] [--sens-tol ss|off] [--ftol 1e-12]
//        [--max-iter 100] [--rtol 1e-8] [--atol 1e-10]. Prints one JSON line.

#include <cvodes/cvodes.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <Eigen/Dense>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int NP = 6;  // c, k, a, B, x0, v0
const char* const kNames[NP] = {"c", "k", "a", "B", "x0", "v0"};
using Vector6 = Eigen::Matrix<double, NP, 1>;
using Matrix6 = Eigen::Matrix<double, NP, NP>;

struct Options {
    std::string data;
    double start[NP] = {2.4, 800.0, 6000.0, 40.0, 0.0, 0.0};
    int repeat = 3, maxIter = 100;
    std::string lmm = "adams", ism = "staggered", sensTol = "ss";
    bool tstop = true;
    double ftol = 1e-12, rtol = 1e-8, atol = 1e-10;
};

void check(int flag, const char* what)
{
    if (flag < 0) throw std::runtime_error(std::string(what) + " failed, flag " + std::to_string(flag));
}

class ForcedDuffing {
public:
    ForcedDuffing(const Options& o, const std::vector<double>& t, const std::vector<double>& u) :
        t_(t), u_(u), tstop_(o.tstop)
    {
        check(SUNContext_Create(nullptr, &ctx_), "SUNContext_Create");
        y_ = N_VNew_Serial(2, ctx_);
        check(N_VEnableFusedOps_Serial(y_, SUNTRUE), "N_VEnableFusedOps_Serial");
        yS_ = N_VCloneVectorArray(NP, y_);
        N_VConst(0.0, y_);
        for (int j = 0; j < NP; ++j) N_VConst(0.0, yS_[j]);
        mem_ = CVodeCreate(o.lmm == "bdf" ? CV_BDF : CV_ADAMS, ctx_);
        check(CVodeInit(mem_, rhs, t_.front(), y_), "CVodeInit");
        check(CVodeSStolerances(mem_, o.rtol, o.atol), "CVodeSStolerances");
        check(CVodeSetUserData(mem_, this), "CVodeSetUserData");
        check(CVodeSetMaxNumSteps(mem_, 1000000), "CVodeSetMaxNumSteps");
        check(CVodeSetMaxHnilWarns(mem_, -1), "CVodeSetMaxHnilWarns");
        check(CVodeSetErrHandlerFn(mem_, quiet, nullptr), "CVodeSetErrHandlerFn");
        A_ = SUNDenseMatrix(2, 2, ctx_);
        ls_ = SUNLinSol_Dense(y_, A_, ctx_);
        check(CVodeSetLinearSolver(mem_, ls_, A_), "CVodeSetLinearSolver");
        check(CVodeSetJacFn(mem_, jac), "CVodeSetJacFn");
        ism_ = o.ism == "simultaneous" ? CV_SIMULTANEOUS : CV_STAGGERED;
        check(CVodeSensInit(mem_, NP, ism_, rhsSens, yS_), "CVodeSensInit");
        double atolS[NP];
        std::fill(atolS, atolS + NP, o.atol);
        check(CVodeSensSStolerances(mem_, o.rtol, atolS), "CVodeSensSStolerances");
        check(CVodeSetSensErrCon(mem_, o.sensTol == "off" ? SUNFALSE : SUNTRUE), "CVodeSetSensErrCon");
    }
    ~ForcedDuffing()
    {
        CVodeFree(&mem_);
        SUNLinSolFree(ls_);
        SUNMatDestroy(A_);
        N_VDestroyVectorArray(yS_, NP);
        N_VDestroy(y_);
        SUNContext_Free(&ctx_);
    }

    // x at the samples and dx/dp (samples x 6). False if CVODES fails.
    bool simulate(const double* par, std::vector<double>& x, Eigen::MatrixXd& J)
    {
        std::copy(par, par + NP, p_);
        double* yd = N_VGetArrayPointer(y_);
        yd[0] = par[4];
        yd[1] = par[5];
        for (int j = 0; j < NP; ++j) N_VConst(0.0, yS_[j]);
        N_VGetArrayPointer(yS_[4])[0] = 1.0;
        N_VGetArrayPointer(yS_[5])[1] = 1.0;
        check(CVodeReInit(mem_, t_.front(), y_), "CVodeReInit");
        check(CVodeSensReInit(mem_, ism_, yS_), "CVodeSensReInit");
        ++integrations;
        const std::size_t n = t_.size();
        x.resize(n);
        J.resize(static_cast<Eigen::Index>(n), NP);
        x[0] = par[4];
        J.row(0).setZero();
        J(0, 4) = 1.0;
        double tret = t_.front();
        for (std::size_t i = 1; i < n; ++i) {
            if (tstop_) {
                piece_ = i - 1;  // u on [t_{i-1}, t_i]
                slope_ = (u_[i] - u_[i - 1]) / (t_[i] - t_[i - 1]);
                check(CVodeSetStopTime(mem_, t_[i]), "CVodeSetStopTime");
            }
            if (CVode(mem_, t_[i], y_, &tret, CV_NORMAL) < 0) {
                collect();
                return false;
            }
            check(CVodeGetSens(mem_, &tret, yS_), "CVodeGetSens");
            x[i] = yd[0];
            for (int j = 0; j < NP; ++j) J(static_cast<Eigen::Index>(i), j) = N_VGetArrayPointer(yS_[j])[0];
        }
        collect();
        return true;
    }

    long integrations = 0, steps = 0, rhsEvals = 0, sensRhsEvals = 0;

private:
    // The held piece (tstop), or the interpolant at t found from a moving index (CVODES steps across samples
    // and evaluates ahead of the last output time and back).
    double input(double t)
    {
        if (tstop_) return u_[piece_] + slope_ * (t - t_[piece_]);
        const std::size_t last = t_.size() - 2;
        if (t <= t_.front()) return u_.front();
        if (t >= t_.back()) return u_.back();
        while (piece_ < last && t >= t_[piece_ + 1]) ++piece_;
        while (piece_ > 0 && t < t_[piece_]) --piece_;
        return u_[piece_] + (u_[piece_ + 1] - u_[piece_]) * ((t - t_[piece_]) / (t_[piece_ + 1] - t_[piece_]));
    }
    void collect()
    {
        long n = 0;
        CVodeGetNumSteps(mem_, &n);
        steps += n;
        CVodeGetNumRhsEvals(mem_, &n);
        rhsEvals += n;
        CVodeGetSensNumRhsEvals(mem_, &n);
        sensRhsEvals += n;
    }
    static void quiet(int, const char*, const char*, char*, void*) {}
    static int rhs(realtype t, N_Vector y, N_Vector ydot, void* ud)
    {
        auto* m = static_cast<ForcedDuffing*>(ud);
        const double* p = m->p_;
        const double* z = N_VGetArrayPointer(y);
        if (!(std::abs(z[0]) < 1e12 && std::abs(z[1]) < 1e12)) return -1;  // a trial that blows up
        double* f = N_VGetArrayPointer(ydot);
        f[0] = z[1];
        f[1] = p[3] * m->input(t) - p[0] * z[1] - p[1] * z[0] - p[2] * z[0] * z[0] * z[0];
        return 0;
    }
    static int jac(realtype, N_Vector y, N_Vector, SUNMatrix J, void* ud, N_Vector, N_Vector, N_Vector)
    {
        const double* p = static_cast<ForcedDuffing*>(ud)->p_;
        const double* z = N_VGetArrayPointer(y);
        SM_ELEMENT_D(J, 0, 0) = 0.0;
        SM_ELEMENT_D(J, 0, 1) = 1.0;
        SM_ELEMENT_D(J, 1, 0) = -p[1] - 3.0 * p[2] * z[0] * z[0];
        SM_ELEMENT_D(J, 1, 1) = -p[0];
        return 0;
    }
    static int rhsSens(int ns, realtype t, N_Vector y, N_Vector, N_Vector* yS, N_Vector* ySdot, void* ud, N_Vector,
                       N_Vector)
    {
        auto* m = static_cast<ForcedDuffing*>(ud);
        const double* p = m->p_;
        const double* z = N_VGetArrayPointer(y);
        const double a = -p[1] - 3.0 * p[2] * z[0] * z[0], b = -p[0];
        const double dfdp[NP] = {-z[1], -z[0], -z[0] * z[0] * z[0], m->input(t), 0.0, 0.0};
        for (int j = 0; j < ns; ++j) {
            const double* s = N_VGetArrayPointer(yS[j]);
            double* ds = N_VGetArrayPointer(ySdot[j]);
            ds[0] = s[1];
            ds[1] = a * s[0] + b * s[1] + dfdp[j];
        }
        return 0;
    }

    const std::vector<double>& t_;
    const std::vector<double>& u_;
    bool tstop_ = true;
    std::size_t piece_ = 0;
    double slope_ = 0.0;
    double p_[NP] = {};
    int ism_ = CV_STAGGERED;
    SUNContext ctx_ = nullptr;
    void* mem_ = nullptr;
    N_Vector y_ = nullptr;
    N_Vector* yS_ = nullptr;
    SUNMatrix A_ = nullptr;
    SUNLinearSolver ls_ = nullptr;
};

struct Result {
    double x[NP] = {};
    double cost = 0;
    int iterations = 0, accepted = 0;
    std::string stop;
};

Result solveLm(ForcedDuffing& m, const std::vector<double>& data, const Options& o)
{
    Result res;
    Vector6 p = Eigen::Map<const Vector6>(o.start);
    std::vector<double> x, xTrial;
    Eigen::MatrixXd J, JTrial;
    const Eigen::Map<const Eigen::VectorXd> d(data.data(), static_cast<Eigen::Index>(data.size()));
    if (!m.simulate(p.data(), x, J)) throw std::runtime_error("integration failed at the start");
    Eigen::VectorXd r = Eigen::Map<Eigen::VectorXd>(x.data(), static_cast<Eigen::Index>(x.size())) - d;
    double cost = 0.5 * r.squaredNorm();
    Matrix6 A = J.transpose() * J;
    Vector6 g = J.transpose() * r;
    Vector6 D = A.diagonal().cwiseMax(1e-300);
    double lambda = 1e-3, nu = 2.0;
    res.stop = "max_iterations";
    for (int it = 1; it <= o.maxIter; ++it) {
        res.iterations = it;
        Matrix6 M = A;
        M.diagonal() += lambda * D;
        const Vector6 dp = M.ldlt().solve(-g);
        const Vector6 pTrial = p + dp;
        double costTrial = std::numeric_limits<double>::infinity();
        Eigen::VectorXd rTrial;
        if (m.simulate(pTrial.data(), xTrial, JTrial)) {
            rTrial = Eigen::Map<Eigen::VectorXd>(xTrial.data(), static_cast<Eigen::Index>(xTrial.size())) - d;
            costTrial = 0.5 * rTrial.squaredNorm();
        }
        const double predicted = 0.5 * dp.dot(lambda * D.cwiseProduct(dp) - g);
        const double change = cost - costTrial;
        const bool small = std::abs(change) <= o.ftol * cost;
        if (std::isfinite(costTrial) && change > 0) {
            const double rho = change / predicted;
            p = pTrial;
            r = rTrial;
            J.swap(JTrial);
            cost = costTrial;
            A = J.transpose() * J;
            g = J.transpose() * r;
            D = D.cwiseMax(A.diagonal());
            lambda *= std::max(1.0 / 3.0, 1.0 - std::pow(2.0 * rho - 1.0, 3));
            nu = 2.0;
            ++res.accepted;
        } else {
            lambda *= nu;
            nu *= 2.0;
        }
        if (small) {
            res.stop = "relative_cost_change";
            break;
        }
    }
    for (int j = 0; j < NP; ++j) res.x[j] = p[j];
    res.cost = cost;
    return res;
}

// t, u, x columns of the CSV bench_forced_duffing_long writes (header "t,u,x").
void readCsv(const std::string& path, std::vector<double>& t, std::vector<double>& u, std::vector<double>& x)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::string line;
    bool header = false;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        if (!header) {
            header = true;
            if (line.rfind("t,u,x", 0) != 0) throw std::runtime_error("expected the header t,u,x in " + path);
            continue;
        }
        std::istringstream ss(line);
        std::string a, b, c;
        std::getline(ss, a, ',');
        std::getline(ss, b, ',');
        std::getline(ss, c, ',');
        t.push_back(std::stod(a));
        u.push_back(std::stod(b));
        x.push_back(std::stod(c));
    }
}

double cpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double peakMegabytes()
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
    return NAN;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

int main(int argc, char** argv)
{
    try {
        Options o;
        for (int i = 1; i < argc; ++i) {
            const std::string a = argv[i];
            auto next = [&]() -> std::string {
                if (i + 1 >= argc) throw std::runtime_error("missing value after " + a);
                return argv[++i];
            };
            if (a == "--data") o.data = next();
            else if (a == "--repeat") o.repeat = std::stoi(next());
            else if (a == "--lmm") o.lmm = next();
            else if (a == "--ism") o.ism = next();
            else if (a == "--sens-tol") o.sensTol = next();
            else if (a == "--no-tstop") o.tstop = false;
            else if (a == "--max-iter") o.maxIter = std::stoi(next());
            else if (a == "--ftol") o.ftol = std::stod(next());
            else if (a == "--rtol") o.rtol = std::stod(next());
            else if (a == "--atol") o.atol = std::stod(next());
            else throw std::runtime_error("unknown option " + a + " (see the header of cvodes_forced_duffing_fit.cpp)");
        }
        if (o.data.empty()) throw std::runtime_error("--data DIR/forced_duffing_long.csv is required");
        std::vector<double> t, u, data;
        readCsv(o.data, t, u, data);
        std::vector<double> walls, cpus;
        Result res;
        long integrations = 0, steps = 0, rhs = 0, rhsS = 0;
        for (int k = 0; k < o.repeat; ++k) {
            ForcedDuffing model(o, t, u);
            const auto t0 = std::chrono::steady_clock::now();
            const double c0 = cpuSeconds();
            res = solveLm(model, data, o);
            cpus.push_back(cpuSeconds() - c0);
            walls.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            integrations = model.integrations;
            steps = model.steps;
            rhs = model.rhsEvals;
            rhsS = model.sensRhsEvals;
        }
        std::printf("{\"program\":\"cvodes_forced_duffing_fit\",\"integrator\":\"CVODES %s %s/newton-dense %s fused-ops, "
                    "sens-tol %s, %s\",\"rtol\":%g,\"atol\":%g,\"samples\":%zu,\"wall_s\":%.6g,"
                    "\"cpu_s\":%.6g,\"iterations\":%d,\"accepted\":%d,\"cpu_s_per_iteration\":%.6g,\"integrations\":%ld,"
                    "\"cvodes_steps\":%ld,\"rhs_evals\":%ld,\"sens_rhs_evals\":%ld,\"cost\":%.15g,\"stop\":\"%s\","
                    "\"peak_mb\":%.1f,\"estimates\":{",
                    SUNDIALS_VERSION, o.lmm.c_str(), o.ism.c_str(), o.sensTol.c_str(),
                    o.tstop ? "tstop at every sample" : "stepping across samples", o.rtol, o.atol, t.size(),
                    median(walls), median(cpus), res.iterations, res.accepted, median(cpus) / res.iterations,
                    integrations, steps, rhs, rhsS, res.cost, res.stop.c_str(), peakMegabytes());
        for (int j = 0; j < NP; ++j) std::printf("%s\"%s\":%.15g", j ? "," : "", kNames[j], res.x[j]);
        std::printf("}}\n");
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cvodes_forced_duffing_fit: %s\n", e.what());
        return 1;
    }
}
