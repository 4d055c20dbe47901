#include "trace/StepLabels.h"
#include <charconv>
#include <limits>

namespace sb {

namespace {
constexpr int kIntMax = std::numeric_limits<int>::max();
// A whole number from 0 to 2^31-1 at the front of `s`; consumed from `s`.
bool takeCount(std::string_view &s, int *out)
{
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || v < 0 || end == s.data())
        return false;
    s.remove_prefix(std::size_t(end - s.data()));
    *out = v;
    return true;
}
bool takePrefix(std::string_view &s, std::string_view prefix)
{
    if (!s.starts_with(prefix))
        return false;
    s.remove_prefix(prefix.size());
    return true;
}
} // namespace

bool parseStepLabel(std::string_view name, StepLabel *out)
{
    if (!takePrefix(name, "step[") || !name.ends_with(']'))
        return false;
    name.remove_suffix(1);
    const std::size_t space = name.find(' ');
    const std::string_view word = name.substr(0, space);
    StepLabel l;
    if (word == "EXTEND" || word == "PREFILL" || word == "CONTEXT")
        l.kind = StepKind::Prefill;
    else if (word == "DECODE" || word == "GENERATION")
        l.kind = StepKind::Decode;
    else if (word == "MIXED")
        l.kind = StepKind::Mixed;
    std::string_view rest = space == std::string_view::npos ? std::string_view() : name.substr(space + 1);
    while (!rest.empty()) {
        const std::size_t next = rest.find(' ');
        std::string_view item = rest.substr(0, next);
        rest = next == std::string_view::npos ? std::string_view() : rest.substr(next + 1);
        int v = -1;
        if (takePrefix(item, "bs=") && takeCount(item, &v) && item.empty())
            l.batch = v;
        else if (takePrefix(item, "toks=") && takeCount(item, &v) && item.empty())
            l.tokens = v;
    }
    *out = l;
    return true;
}

bool parseVllmStepAnnotation(std::string_view s, StepLabel *out)
{
    int ctx = 0, ctxTokens = 0, gen = 0, genTokens = 0;
    if (!takePrefix(s, "execute_context_") || !takeCount(s, &ctx) || !takePrefix(s, "(") || !takeCount(s, &ctxTokens)
        || !takePrefix(s, ")_generation_") || !takeCount(s, &gen) || !takePrefix(s, "(") || !takeCount(s, &genTokens)
        || !takePrefix(s, ")") || !s.empty())
        return false;
    StepLabel l;
    l.kind = ctx > 0 && gen > 0 ? StepKind::Mixed : ctx > 0 ? StepKind::Prefill : gen > 0 ? StepKind::Decode : StepKind::Unknown;
    l.batch = ctx > kIntMax - gen ? kIntMax : ctx + gen;
    l.tokens = ctxTokens > kIntMax - genTokens ? kIntMax : ctxTokens + genTokens;
    *out = l;
    return true;
}

bool isExecuteModel(std::string_view name)
{
    return name == "execute_model" || name.ends_with("): execute_model");
}

bool isGpuCategory(std::string_view cat)
{
    return cat.starts_with("gpu_") || cat == "kernel" || cat == "cuda_runtime" || cat == "cuda_driver" || cat == "ac2g";
}

bool isGpuWork(std::string_view cat)
{
    return cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset";
}

} // namespace sb
