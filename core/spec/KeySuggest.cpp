#include "spec/KeySuggest.h"
#include <algorithm>
#include <vector>

namespace sb {

int editDistance(const QString &a0, const QString &b0)
{
    const QString a = a0.toLower();
    const QString b = b0.toLower();
    const qsizetype n = a.size();
    const qsizetype m = b.size();
    // Three rolling rows are enough for the transposition term.
    std::vector<int> prev2(size_t(m + 1)), prev(size_t(m + 1)), cur(size_t(m + 1));
    for (qsizetype j = 0; j <= m; ++j)
        prev[size_t(j)] = int(j);
    for (qsizetype i = 1; i <= n; ++i) {
        cur[0] = int(i);
        for (qsizetype j = 1; j <= m; ++j) {
            const int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            int d = std::min({prev[size_t(j)] + 1, cur[size_t(j - 1)] + 1, prev[size_t(j - 1)] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d = std::min(d, prev2[size_t(j - 2)] + 1);
            cur[size_t(j)] = d;
        }
        std::swap(prev2, prev);
        std::swap(prev, cur);
    }
    return prev[size_t(m)];
}

QString closestMatch(const QString &word, const QStringList &candidates)
{
    // Short words tolerate one edit; long snake_case keys up to three.
    const int limit = std::clamp(int(word.size()) / 3, 1, 3);
    QString best;
    int bestDistance = limit + 1;
    for (const QString &c : candidates) {
        const int d = editDistance(word, c);
        if (d < bestDistance) {
            best = c;
            bestDistance = d;
        }
    }
    return best;
}

} // namespace sb
