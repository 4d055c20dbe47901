#pragma once
// A thread whose event loop is an EpollDispatcher (the IO threads' loop, load/EpollDispatcher.h),
// for tests that run the same checks on Qt's own loop and on it. `on` runs a function on the
// thread and waits for it; Qt Test's checks and QTRY waits inside it work on that thread.
#include "load/EpollDispatcher.h"
#include <QObject>
#include <QThread>
#include <functional>

namespace sbtest {

struct EpollThread {
    QThread thread;
    EpollThread()
    {
        sb::EpollDispatcher::installOn(&thread);
        thread.start();
    }
    ~EpollThread()
    {
        thread.quit();
        thread.wait();
    }
    EpollThread(const EpollThread &) = delete;
    EpollThread &operator=(const EpollThread &) = delete;
    void on(const std::function<void()> &fn)
    {
        QObject ctx;
        ctx.moveToThread(&thread);
        QMetaObject::invokeMethod(&ctx, fn, Qt::BlockingQueuedConnection);
    }
};

} // namespace sbtest
