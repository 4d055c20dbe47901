#pragma once
// For tests of readers that must refuse a FIFO at once: a reader that blocks on it instead makes
// the test fail rather than hang. After `seconds` (unless destroyed first) the watchdog opens the
// FIFO's writing end and closes it, so a reader blocked in open() or read() gets end-of-file and
// returns; fired() then says the reader had blocked.
#include <QFile>
#include <QString>
#include <atomic>
#include <chrono>
#include <fcntl.h>
#include <thread>
#include <unistd.h>

namespace sbtest {

class FifoWatchdog
{
public:
    FifoWatchdog(const QString &fifo, int seconds)
        : m_thread([this, path = QFile::encodeName(fifo), seconds] {
              for (int i = 0; i < seconds * 10 && !m_done; ++i)
                  std::this_thread::sleep_for(std::chrono::milliseconds(100));
              if (m_done)
                  return;
              // O_NONBLOCK: succeeds only when a reader has the FIFO open, i.e. is blocked on it.
              const int fd = ::open(path.constData(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
              if (fd >= 0) {
                  m_fired = true;
                  ::close(fd);
              }
          })
    {
    }
    ~FifoWatchdog()
    {
        m_done = true;
        m_thread.join();
    }
    FifoWatchdog(const FifoWatchdog &) = delete;
    FifoWatchdog &operator=(const FifoWatchdog &) = delete;
    bool fired() const { return m_fired; }

private:
    std::atomic<bool> m_done{false};
    std::atomic<bool> m_fired{false};
    std::thread m_thread; // last: starts once the flags exist
};

} // namespace sbtest
