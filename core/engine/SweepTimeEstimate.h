#pragma once
// How long a cell is expected to take: one model for the designer's estimate and for balancing
// cluster shards (engine/ShardPlan.h). Deliberately rough, and honest about it.
#include "spec/SweepSpec.h"

namespace sb {

// Duration model: embedded mocks by their own timing model (waves of up to max_batch requests
// that prefill, then decode one step per token); real servers at ~(50 ms + output tokens × 20 ms)
// per request (a mid-size model decoding at ~50 tok/s per stream), C at once; plus warmup and
// ~1 s of hooks per cell.
double estimateCellSeconds(const SweepSpec &spec, const ServerSpec &server, int concurrency);
// One open-loop rate point: requests / R (or duration_s) plus one request's time, and warmup.
double estimateRateCellSeconds(const SweepSpec &spec, const ServerSpec &server, double rate);
// Every sweep point of one server, times sweep.repeats.
double estimateServerSeconds(const SweepSpec &spec, const ServerSpec &server);
// The decoding speed assumed for real servers, for the sentence that states the assumption.
int assumedTokensPerStreamSecond();

} // namespace sb
