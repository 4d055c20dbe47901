#pragma once
// Did the reset really empty the server's prefix cache? An HTTP answer says the server accepted
// the call; the first measured requests say what it did. When the server reports cached prompt
// tokens per request (usage.prompt_tokens_details.cached_tokens: llama.cpp always, vLLM with
// --enable-prompt-tokens-details, SGLang) and nothing ran between the reset and the measured
// phase, the first C requests sent must reuse (almost) nothing: each starts on an empty cache.
// Some reusing more than a small allowance contradicts the reset (llama.cpp's host-RAM prompt
// cache brings erased prefixes back). Zero is only consistent with a reset, not a proof: unique
// prompts share little with earlier cells anyway (docs/ARCHITECTURE.md §14).
#include "load/RequestRecord.h"
#include "results/HookVocabulary.h"
#include <QString>
#include <vector>

namespace sb {

struct ResetProof {
    CacheProof verdict = CacheProof::None; // None: no evidence
    int cachedTokens = 0; // the least any of the first requests reused
};

ResetProof judgeResetProof(const std::vector<RequestRecord> &measured, int concurrency);

} // namespace sb
