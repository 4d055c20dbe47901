#include "load/ArrivalSchedule.h"
#include <algorithm>
#include <cmath>

namespace sb {

ArrivalSchedule::ArrivalSchedule(Arrival arrival, double ratePerS, double burstiness, std::uint64_t seed, int exactBlock)
    : m_arrival(arrival), m_rate(ratePerS), m_shape(arrival == Arrival::Poisson ? 1.0 : burstiness),
      m_exactBlock(arrival == Arrival::Poisson || arrival == Arrival::Gamma ? std::max(0, exactBlock) : 0), m_rng(seed)
{
    m_offsets.push_back(0);
}

ArrivalSchedule::ArrivalSchedule(const std::vector<double> &traceMs, double ratePerS)
    : m_arrival(Arrival::Trace), m_rate(ratePerS), m_shape(1.0), m_exactBlock(0), m_rng(0)
{
    const double own = traceRate(traceMs);
    const double scale = own > 0 && ratePerS > 0 ? own / ratePerS : 1.0; // trace time -> phase time
    m_traceScale = scale;
    m_traceS.reserve(traceMs.size());
    for (double t : traceMs)
        m_traceS.push_back((t - traceMs.front()) / 1000.0 * scale);
    m_traceCycleS = m_traceS.empty() ? 0 : m_traceS.back() + (ratePerS > 0 ? 1.0 / ratePerS : 0);
}

double ArrivalSchedule::traceRate(const std::vector<double> &traceMs)
{
    if (traceMs.size() < 2)
        return 0;
    const double spanS = (traceMs.back() - traceMs.front()) / 1000.0;
    return spanS > 0 ? double(traceMs.size() - 1) / spanS : 0;
}

std::int64_t ArrivalSchedule::offsetNs(int ticket)
{
    if (ticket < 0)
        return 0;
    if (m_arrival == Arrival::Trace) { // a pure function of the ticket: no shared state to lock
        if (m_traceS.empty())
            return 0;
        const std::size_t n = m_traceS.size(), k = std::size_t(ticket);
        return std::llround((double(k / n) * m_traceCycleS + m_traceS[k % n]) * 1e9);
    }
    std::lock_guard lock(m_mutex);
    while (m_offsets.size() <= std::size_t(ticket)) {
        if (m_exactBlock > 0) {
            drawExactBlock();
            continue;
        }
        m_sumS += nextGapS();
        m_offsets.push_back(std::llround(m_sumS * 1e9));
    }
    return m_offsets[std::size_t(ticket)];
}

double ArrivalSchedule::nextGapS()
{
    const double mean = 1.0 / m_rate;
    switch (m_arrival) {
    case Arrival::Constant: return mean;
    case Arrival::Poisson: return -std::log(uniform01()) * mean;
    case Arrival::Gamma: return gamma(m_shape) * mean / m_shape; // scale = mean / shape
    case Arrival::Trace: return mean; // not reached: offsetNs reads the trace
    }
    return mean;
}

void ArrivalSchedule::drawExactBlock()
{
    std::vector<double> gaps(static_cast<std::size_t>(m_exactBlock));
    double sum = 0;
    for (double &g : gaps)
        sum += g = nextGapS();
    // A very bursty gamma (shape 0.01) can underflow every gap of a short block to 0: then the
    // block has no shape to keep, and even gaps are the only ones with the exact mean.
    const bool shaped = sum > 0;
    const double scale = shaped ? double(m_exactBlock) / m_rate / sum : 0;
    for (double g : gaps) {
        m_sumS += shaped ? g * scale : 1.0 / m_rate;
        m_offsets.push_back(std::llround(m_sumS * 1e9));
    }
}

double ArrivalSchedule::uniform01()
{
    // 53 random bits, shifted by half a step so 0 (whose log is -inf) never comes out.
    return (double(m_rng() >> 11) + 0.5) * 0x1.0p-53;
}

double ArrivalSchedule::normal()
{
    // Box-Muller; one of the pair is enough here.
    constexpr double kTwoPi = 6.283185307179586;
    return std::sqrt(-2.0 * std::log(uniform01())) * std::cos(kTwoPi * uniform01());
}

double ArrivalSchedule::gamma(double shape)
{
    // Marsaglia & Tsang (2000), "A simple method for generating gamma variables", unit scale;
    // for shape < 1, Gamma(shape) = Gamma(shape + 1) * U^(1/shape) (their section 6).
    if (shape < 1.0)
        return gamma(shape + 1.0) * std::pow(uniform01(), 1.0 / shape);
    const double d = shape - 1.0 / 3.0;
    const double c = 1.0 / std::sqrt(9.0 * d);
    for (;;) {
        double x = 0, v = 0;
        do {
            x = normal();
            v = 1.0 + c * x;
        } while (v <= 0);
        v = v * v * v;
        const double u = uniform01();
        if (u < 1.0 - 0.0331 * x * x * x * x || std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v)))
            return d * v;
    }
}

} // namespace sb
