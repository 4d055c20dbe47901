#include "results/RepeatStats.h"
#include <cmath>
#include <limits>
#include <numeric>

namespace sb {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Continued fraction of the regularized incomplete beta function I_x(a, b), evaluated with the
// modified Lentz method (converges fast for x < (a + 1) / (a + b + 2)).
double betaContinuedFraction(double a, double b, double x)
{
    constexpr double kTiny = 1e-300;
    constexpr double kEps = 1e-15;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = 1 / (std::abs(d) < kTiny ? kTiny : d);
    double h = d;
    for (int m = 1; m <= 500; ++m) {
        const double m2 = 2.0 * m;
        // even step
        double num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        d = 1 + num * d;
        c = 1 + num / c;
        d = 1 / (std::abs(d) < kTiny ? kTiny : d);
        c = std::abs(c) < kTiny ? kTiny : c;
        h *= d * c;
        // odd step
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        d = 1 + num * d;
        c = 1 + num / c;
        d = 1 / (std::abs(d) < kTiny ? kTiny : d);
        c = std::abs(c) < kTiny ? kTiny : c;
        const double step = d * c;
        h *= step;
        if (std::abs(step - 1) < kEps)
            break;
    }
    return h;
}

double incompleteBeta(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
    if (x < (a + 1) / (a + b + 2))
        return front * betaContinuedFraction(a, b, x) / a;
    return 1 - front * betaContinuedFraction(b, a, 1 - x) / b; // symmetry: I_x(a,b) = 1 - I_{1-x}(b,a)
}

} // namespace

double studentTCdf(double t, double df)
{
    if (!(df > 0) || std::isnan(t))
        return kNaN;
    if (std::isinf(t))
        return t > 0 ? 1 : 0;
    const double tail = 0.5 * incompleteBeta(df / 2, 0.5, df / (df + t * t)); // P(T > |t|)
    return t >= 0 ? 1 - tail : tail;
}

double studentT975(double df)
{
    if (!(df > 0))
        return kNaN;
    double lo = 0, hi = 1;
    while (studentTCdf(hi, df) < 0.975)
        hi *= 2; // df = 1 needs 12.7; tiny df far more, still a few doublings
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
        const double mid = (lo + hi) / 2;
        (studentTCdf(mid, df) < 0.975 ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

MeanCi meanCi95(const std::vector<double> &values)
{
    MeanCi r;
    r.n = int(values.size());
    if (r.n == 0) {
        r.mean = r.sd = r.halfWidth = kNaN;
        return r;
    }
    r.mean = std::accumulate(values.begin(), values.end(), 0.0) / r.n;
    if (r.n < 2) {
        r.sd = r.halfWidth = kNaN;
        return r;
    }
    double ss = 0;
    for (double v : values)
        ss += (v - r.mean) * (v - r.mean);
    r.sd = std::sqrt(ss / (r.n - 1));
    r.halfWidth = studentT975(r.n - 1) * r.sd / std::sqrt(double(r.n));
    return r;
}

WelchResult welchTest(const std::vector<double> &a, const std::vector<double> &b)
{
    WelchResult w;
    const MeanCi x = meanCi95(a), y = meanCi95(b);
    if (x.n < 2 || y.n < 2) {
        w.t = w.df = w.p = kNaN;
        return w;
    }
    const double va = x.sd * x.sd / x.n, vb = y.sd * y.sd / y.n;
    if (va + vb == 0) { // no run-to-run noise on either side
        w.t = x.mean == y.mean ? 0 : std::copysign(std::numeric_limits<double>::infinity(), x.mean - y.mean);
        w.df = x.n + y.n - 2;
        w.p = x.mean == y.mean ? 1 : 0;
        return w;
    }
    w.t = (x.mean - y.mean) / std::sqrt(va + vb);
    w.df = (va + vb) * (va + vb) / (va * va / (x.n - 1) + vb * vb / (y.n - 1));
    w.p = 2 * (1 - studentTCdf(std::abs(w.t), w.df));
    return w;
}

} // namespace sb
