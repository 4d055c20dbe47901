#pragma once
// How servers name an engine step in their profiler traces (docs/traces.md "Steps"), one place:
//   TensorRT-LLM and SGLang  step[EXTEND bs=4 toks=512], step[DECODE bs=8], step[MIXED ...]
//   vLLM (annotated steps)   execute_context_1(127)_generation_3(3): prefill requests (tokens),
//                            decode requests (tokens)
//   vLLM (python stacks)     "vllm/v1/worker/gpu_model_runner.py(3939): execute_model", nested
//                            three deep per step (worker_base -> gpu_worker -> gpu_model_runner)
#include "results/TraceSummary.h"
#include <string_view>

namespace sb {

struct StepLabel {
    StepKind kind = StepKind::Unknown;
    int batch = -1;  // sequences in the step; -1 unlabelled
    int tokens = -1; // tokens the step processed; -1 unlabelled
};

// step[KIND key=value ...]; false when `name` is not such a label.
bool parseStepLabel(std::string_view name, StepLabel *out);
// execute_context_N(T)_generation_M(G); false when `name` is not one.
bool parseVllmStepAnnotation(std::string_view name, StepLabel *out);
// "execute_model", or a python frame "file.py(line): execute_model".
bool isExecuteModel(std::string_view name);
// Categories of events on GPU timelines: never steps (Kineto copies each CPU annotation onto the
// GPU stream as gpu_user_annotation, which would count every step twice).
bool isGpuCategory(std::string_view cat);
// Kernels and copies: the GPU's busy time.
bool isGpuWork(std::string_view cat);

} // namespace sb
