#pragma once
// When a server's prefix cache starts serving a prompt's blocks to other requests
// (docs/spec-reference.md, "The prefix cache: ideal against reported"). One rule for the
// engine's ideal share and for the mock's cache, so the two cannot drift apart.
#include "spec/SweepSpec.h"

namespace sb {

// vLLM (and an OpenAI-compatible server, treated like it) caches a prompt's full blocks when it
// schedules the request, so a request scheduled after it, even in the same step, already hits
// them. SGLang, TensorRT-LLM and llama.cpp reuse a prompt only once its prefill has run.
inline bool cachesPromptWhenScheduled(Flavor flavor) { return flavor == Flavor::Vllm || flavor == Flavor::Openai; }

} // namespace sb
