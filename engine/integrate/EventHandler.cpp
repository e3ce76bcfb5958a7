#include "engine/integrate/EventHandler.h"

#include "engine/data/Text.h"
#include "engine/integrate/IntegrationError.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sysid::integrate {

namespace {

double dot(const std::vector<double>& a, const double* b)
{
    double s = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i)
        s += a[i] * b[i];
    return s;
}

// A reset that fires again within this time of its last firing is taken for Zeno behaviour.
double zenoGap(double t)
{
    return 1e-9 * std::max(1.0, std::abs(t));
}

IntegrationError zeno(double t, const std::string& what)
{
    return IntegrationError(IntegrationError::Reason::Zeno, t,
                            "integration stopped at t = " + data::formatNumber(t, 10) + ": " + what +
                                " (Zeno behaviour: the events accumulate, as when a bouncing body comes to rest); "
                                "end the simulation before this time");
}

}  // namespace

EventHandler::EventHandler(SensitivitySystem& system, Discontinuities& discontinuities) :
    system_(system), d_(discontinuities), switches_(discontinuities.switchCount()),
    resets_(discontinuities.eventCount())
{
    modes_.assign(switches_, 1.0);
    sliding_.assign(switches_, 0);
    armed_.assign(indicatorCount(), 0);
    fired_.assign(resets_, 0);
    lastFired_.assign(resets_, -std::numeric_limits<double>::infinity());
    afterFiring_.assign(resets_, 0.0);
    const std::size_t n = system.stateCount();
    std::size_t c = 0;
    if (system.initialStateColumns())
        for (; c < n; ++c)
            columnParameter_.push_back(-1);
    for (std::size_t p : system.parameters())
        columnParameter_.push_back(static_cast<int>(p));
    const std::size_t np = system.system().parameterCount();
    x_.resize(n);
    f0_.resize(n);
    f1_.resize(n);
    gx_.resize(n);
    gp_.resize(np);
    hx_.resize(n * n);
    hp_.resize(n * np);
    ht_.resize(n);
    jump_.resize(n);
    rates_.resize(switches_);
    scratchZ_.resize(system.size());
}

EventHandler::~EventHandler()
{
    d_.releaseModes();
}

void EventHandler::hold()
{
    d_.holdModes(modes_, sliding_);
}

void EventHandler::indicators(double t, const double* x, std::vector<double>& e)
{
    e.resize(indicatorCount());
    if (switches_ > 0) {
        d_.switchingFunctions(t, x, e.data());
        bool anySliding = false;
        for (std::size_t i = 0; i < switches_; ++i) {
            if (sliding_[i])
                anySliding = true;
            else
                e[i] *= modes_[i];
        }
        if (anySliding) {
            d_.currentModes(t, x, rates_.data());
            for (std::size_t i = 0; i < switches_; ++i)
                if (sliding_[i])
                    e[i] = 1.0 - std::abs(rates_[i]);
        }
    }
    if (resets_ > 0) {
        d_.eventConditions(t, x, e.data() + switches_);
        for (std::size_t k = 0; k < resets_; ++k)
            e[switches_ + k] *= -d_.eventDirection(k);
    }
}

double EventHandler::rate(double t, const double* x, std::size_t i, double mode)
{
    std::vector<double> m(switches_);
    d_.currentModes(t, x, m.data());
    m[i] = mode;
    d_.rates(t, x, m, rates_.data());
    return rates_[i];
}

void EventHandler::chooseModes(double t, const double* x)
{
    std::fill(modes_.begin(), modes_.end(), 1.0);
    std::fill(sliding_.begin(), sliding_.end(), 0);
    hold();
    std::vector<double> g(switches_);
    for (std::size_t i = 0; i < switches_; ++i) {
        d_.switchingFunctions(t, x, g.data());
        if (g[i] != 0.0) {
            modes_[i] = g[i] > 0 ? 1.0 : -1.0;
        } else {
            // On the surface: the branch the flow leaves into, or sliding when both push into it.
            const double up = rate(t, x, i, 1.0), down = rate(t, x, i, -1.0);
            if (up > 0)
                modes_[i] = 1.0;
            else if (down < 0)
                modes_[i] = -1.0;
            else if (up != down)
                sliding_[i] = 1;
        }
        hold();
    }
}

void EventHandler::rearm(double t, const double* x)
{
    indicators(t, x, e0_);
    for (std::size_t j = 0; j < indicatorCount(); ++j)
        armed_[j] = e0_[j] > 0;
    // A sliding mode that starts at the edge of [-1, 1] (a grazing entry) must still be able to
    // leave: its exit is armed from the start.
    for (std::size_t i = 0; i < switches_; ++i)
        if (sliding_[i]) {
            armed_[i] = 1;
            e0_[i] = std::max(e0_[i], 0.0);
        }
}

void EventHandler::start(double t, const double* z)
{
    chooseModes(t, z);
    std::fill(fired_.begin(), fired_.end(), 0);
    rearm(t, z);
}

void EventHandler::restart(double t, double* z)
{
    std::vector<double> e;
    indicators(t, z, e);
    due_.clear();
    // Only what changed sign at this instant (f jumped here, e.g. a held input's new sample).
    for (std::size_t j = 0; j < indicatorCount(); ++j)
        if (e[j] < 0 && (j < switches_ ? e0_[j] >= 0 : armed_[j] != 0))
            due_.push_back(j);
    if (due_.empty()) {
        e0_ = e;
        return;
    }
    apply(t, z, true);
}

std::optional<double> EventHandler::locate(double t0, double t1, const double* z1, const StateAt& stateAt)
{
    indicators(t1, z1, e1_);
    due_.clear();
    for (std::size_t j = 0; j < indicatorCount(); ++j)
        if (armed_[j] && e1_[j] < 0)
            due_.push_back(j);
    double lo = t0;
    if (due_.empty()) {
        for (std::size_t k = 0; k < resets_; ++k) {
            const double e = e1_[switches_ + k];
            // Past the surface again, deeper than just after the reset: the body left the surface
            // and came back within the step. Look for the excursion on the dense output; none
            // found means the events accumulate (Zeno).
            if (!fired_[k] || e >= 0 || e >= afterFiring_[k])
                continue;
            for (int j = 1; j < 64 && due_.empty(); ++j) {
                const double t = t0 + (t1 - t0) * j / 64.0;
                stateAt(t, scratchZ_.data());
                indicators(t, scratchZ_.data(), em_);
                if (em_[switches_ + k] > 0) {
                    lo = t;
                    e0_ = em_;
                    due_.push_back(switches_ + k);
                }
            }
            if (due_.empty())
                throw zeno(t0, d_.eventName(k) + " fires again at once after its reset");
            armed_[switches_ + k] = 1;
            break;
        }
    }
    if (due_.empty()) {
        for (std::size_t j = 0; j < indicatorCount(); ++j)
            if (e1_[j] > 0) {
                armed_[j] = 1;
                if (j >= switches_)
                    fired_[j - switches_] = 0;
            }
        e0_ = e1_;
        return std::nullopt;
    }
    auto lowest = [&](const std::vector<double>& e) {
        double f = std::numeric_limits<double>::infinity();
        for (std::size_t j : due_)
            f = std::min(f, e[j]);
        return f;
    };
    // Illinois (modified regula falsi; Dowell and Jarratt 1971) on the earliest of the crossings.
    double hi = t1, flo = std::max(lowest(e0_), 0.0), fhi = lowest(e1_);
    const double tolerance =
        4 * std::numeric_limits<double>::epsilon() * std::max({1.0, std::abs(t0), std::abs(t1)}) + 1e-13 * (t1 - t0);
    int side = 0;
    for (int iteration = 0; iteration < 200 && hi - lo > tolerance; ++iteration) {
        double tm = flo - fhi != 0 ? (lo * fhi - hi * flo) / (fhi - flo) : 0.5 * (lo + hi);
        const double margin = 0.01 * (hi - lo);
        if (!(tm > lo + margin && tm < hi - margin) || iteration % 8 == 7)
            tm = 0.5 * (lo + hi);
        stateAt(tm, scratchZ_.data());
        indicators(tm, scratchZ_.data(), em_);
        for (std::size_t j = 0; j < indicatorCount(); ++j)
            if (armed_[j] && em_[j] < 0 && std::find(due_.begin(), due_.end(), j) == due_.end())
                due_.push_back(j);
        const double fm = lowest(em_);
        if (fm < 0) {
            hi = tm;
            fhi = fm;
            if (side == -1)
                flo *= 0.5;
            side = -1;
        } else {
            lo = tm;
            flo = fm;
            if (side == 1)
                fhi *= 0.5;
            side = 1;
        }
    }
    stateAt(hi, scratchZ_.data());
    indicators(hi, scratchZ_.data(), em_);
    due_.clear();
    for (std::size_t j = 0; j < indicatorCount(); ++j)
        if (armed_[j] && em_[j] < 0)
            due_.push_back(j);
    return hi;
}

void EventHandler::saltation(double* z, const std::vector<double>& gx, const std::vector<double>& gp, double rate,
                             const std::vector<double>& jump)
{
    if (rate == 0.0)
        return;  // grazing: the flow is not differentiable here
    const std::size_t n = this->n();
    for (std::size_t c = 0; c < columnParameter_.size(); ++c) {
        double* S = z + n * (1 + c);
        const double gpc = columnParameter_[c] >= 0 ? gp[static_cast<std::size_t>(columnParameter_[c])] : 0.0;
        const double dtau = -(dot(gx, S) + gpc) / rate;
        for (std::size_t i = 0; i < n; ++i)
            S[i] += jump[i] * dtau;
    }
}

void EventHandler::flip(double t, double* z, std::size_t i, bool timeEvent)
{
    auto& system = system_.system();
    system.rhs(t, z, f0_.data());
    const double gt = d_.switchingGradient(t, z, i, gx_.data(), gp_.data());
    const double before = dot(gx_, f0_.data()) + gt;
    const double mode = -modes_[i];
    if (rate(t, z, i, mode) * mode > 0) {
        modes_[i] = mode;
    } else {
        // The other side pushes back into the surface: slide on it.
        modes_[i] = 0.0;
        sliding_[i] = 1;
    }
    hold();
    if (timeEvent)
        return;  // at a fixed time the event time does not depend on the parameters
    system.rhs(t, z, f1_.data());
    for (std::size_t r = 0; r < n(); ++r)
        jump_[r] = f0_[r] - f1_[r];
    saltation(z, gx_, gp_, before, jump_);
}

void EventHandler::leaveSurface(double t, const double* z, std::size_t i)
{
    // The solved mode reached +-1: f is continuous here, so the sensitivities do not jump.
    std::vector<double> m(switches_);
    d_.currentModes(t, z, m.data());
    modes_[i] = m[i] > 0 ? 1.0 : -1.0;
    sliding_[i] = 0;
    hold();
}

void EventHandler::fireReset(double t, double* z, std::size_t k, bool timeEvent)
{
    if (t - lastFired_[k] <= zenoGap(t))
        throw zeno(t, d_.eventName(k) + " fired again " + data::formatNumber(t - lastFired_[k], 3) +
                          " after the last time");
    auto& system = system_.system();
    const std::size_t n = this->n();
    system.rhs(t, z, f0_.data());
    const double gt = d_.eventGradient(t, z, k, gx_.data(), gp_.data());
    const double before = dot(gx_, f0_.data()) + gt;
    d_.reset(t, z, k, x_.data(), hx_.data(), hp_.data(), ht_.data());
    chooseModes(t, x_.data());
    system.rhs(t, x_.data(), f1_.data());
    // x+ = h(x-): S+ = hx S + hp + (hx f- + ht - f+) dtau (Hiskens and Pai 2000, eq. 13).
    for (std::size_t r = 0; r < n; ++r) {
        double s = ht_[r] - f1_[r];
        for (std::size_t j = 0; j < n; ++j)
            s += hx_[j * n + r] * f0_[j];
        jump_[r] = s;
    }
    std::vector<double> next(n);
    for (std::size_t c = 0; c < columnParameter_.size(); ++c) {
        double* S = z + n * (1 + c);
        const int p = columnParameter_[c];
        const double dtau = before != 0.0 && !timeEvent ? -(dot(gx_, S) + (p >= 0 ? gp_[static_cast<std::size_t>(p)] : 0.0)) / before
                                          : 0.0;
        for (std::size_t r = 0; r < n; ++r) {
            double s = (p >= 0 ? hp_[static_cast<std::size_t>(p) * n + r] : 0.0) + jump_[r] * dtau;
            for (std::size_t j = 0; j < n; ++j)
                s += hx_[j * n + r] * S[j];
            next[r] = s;
        }
        std::copy(next.begin(), next.end(), S);
    }
    std::copy(x_.begin(), x_.end(), z);
    lastFired_[k] = t;
    fired_[k] = 1;
}

void EventHandler::apply(double t, double* z, bool timeEvent)
{
    std::sort(due_.begin(), due_.end());

    for (std::size_t j : due_) {
        if (j >= switches_)
            fireReset(t, z, j - switches_, timeEvent);
        else if (sliding_[j])
            leaveSurface(t, z, j);
        else
            flip(t, z, j, timeEvent);
        ++applied_;
    }
    rearm(t, z);
    for (std::size_t k = 0; k < resets_; ++k)
        if (fired_[k])
            afterFiring_[k] = e0_[switches_ + k];
}

}  // namespace sysid::integrate
