#pragma once
// What `hooks check` and the designer's estimate show about a workload before a run: its
// lengths, its dataset's statistics and, against a live server, the prompt calibration the run
// would use (every anchor length: filler characters and the server's count).
#include "engine/PromptCalibration.h"
#include "workload/Dataset.h"
#include <QStringList>

namespace sb {

// One line per length setting and the dataset (loaded, so a bad file shows its FILE:LINE
// error). `specFile` resolves a relative dataset path. *ok turns false on a dataset error.
QStringList describeWorkload(const SweepSpec &spec, bool *ok);

// One line for the designer's estimate, without reading any file: what lengths the requests ask
// for and how prompts will be sized ("input normal mean 384 … (mean 384.9) · output 16 tokens ·
// prompts calibrated per model at 64, 544 and 1024 tokens before the first cell").
QString workloadEstimateLine(const WorkloadSpec &w);
// What sessions and shared prefixes make of the prompts, from the spec alone: "sessions of 4
// turns, think 500 ms: a session's prompts grow 512 → 600 → 688 → 776 tokens; 53 % of its
// prompt tokens are earlier turns a prefix cache can serve" and "4 shared prefixes of 448 tokens
// (70 % of each prompt)". Empty when the workload has neither.
QString cacheShapeLine(const WorkloadSpec &w);

// Calibrates the workload's anchor lengths on one server (probes through `client`) and says
// how each came out: "prompt calibration: 256 tokens = 702 filler characters (server counted
// 256.0; 12 probes)". `dataset` may be null.
QStringList calibrationReport(ControlClient &client, const ServerSpec &server, const QString &baseUrl, const WorkloadSpec &w,
                              const Dataset *dataset, const std::atomic<bool> *cancel);

} // namespace sb
