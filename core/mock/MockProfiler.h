#pragma once
// Profiler windows of the three personalities (docs/ARCHITECTURE.md §6): what /start_profile and
// /stop_profile answer, when a window opens and closes, and the Chrome trace-event file each
// window leaves behind (one complete event per scheduler step, openable in Perfetto).
#include "mock/MockScheduler.h"
#include "mock/MockServer.h"
#include <QByteArray>
#include <QStringList>
#include <optional>

namespace sb {

struct MockAnswer {
    int status = 200;
    QByteArray contentType;   // empty for an empty body
    QByteArray body;
};

class MockProfiler
{
public:
    explicit MockProfiler(const MockConfig &cfg) : m_cfg(cfg) {}

    // `body` is the raw request body. `started` is set when a new window opened.
    MockAnswer start(const QByteArray &body, bool *started);
    MockAnswer stop();
    void onStep(const MockStepRecord &step); // records it if a window is open; may auto-stop
    bool active() const { return m_window.has_value(); }
    QStringList writtenFiles() const { return m_written; }

private:
    struct Window {
        int id = 0;
        QString outputDir;
        QString prefix;
        QStringList activities;
        int numSteps = 0;     // 0 = until /stop_profile
        int skipSteps = 0;    // start_step: steps to let pass before recording
        std::vector<MockStepRecord> steps;
    };
    MockAnswer startTrtllm(const QByteArray &body, bool *started);
    MockAnswer startSglang(const QByteArray &body, bool *started);
    QString finish(QString *error); // writes the trace, closes the window; returns the file
    QString defaultDir() const;

    MockConfig m_cfg;
    std::optional<Window> m_window;
    int m_nextId = 1;
    QString m_autoStoppedFile; // trtllm: a window closed by num_steps, reported by the next stop
    int m_autoStoppedId = 0;
    QStringList m_written;
};

} // namespace sb
