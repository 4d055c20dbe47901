#include "engine/ResetProof.h"
#include <algorithm>

namespace sb {

ResetProof judgeResetProof(const std::vector<RequestRecord> &measured, int concurrency)
{
    std::vector<const RequestRecord *> sent;
    for (const RequestRecord &r : measured)
        if (r.ok() && r.sendNs > 0 && r.cachedTokens >= 0)
            sent.push_back(&r);
    if (sent.empty())
        return {};
    std::sort(sent.begin(), sent.end(), [](const RequestRecord *a, const RequestRecord *b) { return a->sendNs < b->sendNs; });
    // The first C went out together on an empty cache; later ones may reuse their prefixes.
    const std::size_t first = std::min<std::size_t>(sent.size(), std::size_t(std::max(1, concurrency)));
    ResetProof p;
    p.cachedTokens = INT32_MAX;
    int allowance = 4;
    for (std::size_t i = 0; i < first; ++i) {
        p.cachedTokens = std::min(p.cachedTokens, int(sent[i]->cachedTokens));
        allowance = std::max(allowance, int(sent[i]->inputTokens / 20)); // 5 % of the prompt
    }
    p.verdict = p.cachedTokens > allowance ? CacheProof::Contradicted : CacheProof::Consistent;
    return p;
}

} // namespace sb
