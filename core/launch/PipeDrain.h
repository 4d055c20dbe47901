#pragma once
// Reads a child's output pipe on the calling (reader) thread until EOF, or until `stop` is set
// (checked every 100 ms while the pipe is quiet: a straggler that left the process group may
// keep the pipe open), handing each chunk to `onChunk`. Closes `fd`. The one loop of the
// launched server's log reader and the nvidia-smi sampler.
#include <atomic>
#include <cstddef>
#include <functional>

namespace sb {

void drainPipe(int fd, const std::atomic<bool> &stop, const std::function<void(const char *data, std::size_t size)> &onChunk);

} // namespace sb
