// The step list behind the Trace tab's timeline (trace/TraceSteps.h): one lane per rank file with
// its steps in time order, kinds, labels and batch sizes as the summary's rules find them; the cap
// per lane (the first steps in time, said so); labels pooled and capped; unreadable and missing
// files as lanes with the reader's error; cancel stopping a read in the middle of a file.
#include "SyntheticTraces.h"
#include "TestSupport.h"
#include "trace/TraceSteps.h"
#include "trace/TraceSummarizer.h"
#include <QTemporaryDir>
#include <QTest>
#include <thread>

using namespace sb;
using namespace sbtest;


class TestTraceSteps : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { failOnQtWarnings(); }

    void lanePerRank()
    {
        QTemporaryDir dir;
        const QString r0 = dir.filePath(QStringLiteral("trtllm-trace-7-rank-0.json"));
        const QString r1 = dir.filePath(QStringLiteral("trtllm-trace-7-rank-1.json"));
        QVERIFY(writeTrace(r0, trtllmRankTrace(0, 2, 10)));
        QVERIFY(writeTrace(r1, trtllmRankTrace(1, 2, 9)));
        const QString notes = dir.filePath(QStringLiteral("rank0.profiler_out.txt")); // not a trace: no lane
        QVERIFY(writeTrace(notes, "text"));
        TraceLoadProgress progress;
        const StepTimeline t = readStepTimeline({r1, notes, r0}, {}, nullptr, &progress);
        QCOMPARE(t.lanes.size(), 2);
        QCOMPARE(t.lanes[0].rank, 0); // by rank, whatever order the paths came in
        QCOMPARE(t.lanes[1].rank, 1);
        QCOMPARE(countKind(t.lanes[0], StepKind::Prefill), 2);
        QCOMPARE(countKind(t.lanes[0], StepKind::Decode), 10);
        QCOMPARE(countKind(t.lanes[1], StepKind::Decode), 9);
        QCOMPARE(t.lanes[1].source, StepSource::StepLabels);
        QVERIFY(!t.lanes[0].capped);
        QVERIFY(t.lanes[0].error.isEmpty());
        QCOMPARE(t.originUs, 1000.0);
        QCOMPARE(t.endUs, syntheticStepStart(11) + syntheticStepDur(11) - 1000);
        const TimelineStep &first = t.lanes[0].steps.front();
        QCOMPARE(first.startUs, 0.0);
        QCOMPARE(first.durUs, 1000.0);
        QCOMPARE(first.batch, 4);
        QCOMPARE(first.tokens, 512);
        QCOMPARE(t.lanes[0].labelOf(first), QStringLiteral("step[EXTEND bs=4 toks=512]"));
        QCOMPARE(t.lanes[1].labelOf(t.lanes[1].steps.at(5)), QStringLiteral("step[DECODE bs=4]"));
        QCOMPARE(t.lanes[0].maxDurUs, syntheticStepDur(11));
        QCOMPARE(progress.filesDone.load(), 2);
        QCOMPARE(progress.bytesDone.load(), progress.bytesTotal.load());
        QVERIFY(progress.bytesTotal.load() > 0);
        // The same steps as the stored summary counts.
        const TraceSummary s = summarizeTraces({r0, r1});
        QCOMPARE(qint64(t.keptSteps()), s.merged.steps);
    }

    // At most maxStepsPerLane kept: the first ones in time even when the file wrote them last.
    void capPerLane()
    {
        QTemporaryDir dir;
        const QString r0 = dir.filePath(QStringLiteral("trtllm-trace-7-rank-0.json"));
        QVERIFY(writeTrace(r0, trtllmRankTrace(0, 2, 10, 0, /*reversed=*/true)));
        StepTimelineOptions options;
        options.maxStepsPerLane = 5;
        const StepTimeline t = readStepTimeline({r0}, options);
        QCOMPARE(t.lanes.size(), 1);
        const StepLane &l = t.lanes[0];
        QVERIFY(l.capped);
        QCOMPARE(l.totalSteps, 12);
        QCOMPARE(qsizetype(l.steps.size()), 5);
        for (int k = 0; k < 5; ++k)
            QCOMPARE(l.steps.at(std::size_t(k)).startUs, syntheticStepStart(k) - 1000);
        QCOMPARE(t.endUs, syntheticStepStart(4) + syntheticStepDur(4) - 1000);
    }

    // Labels are pooled per lane and capped like op names: past the cap a step has none.
    void labelsCapped()
    {
        QTemporaryDir dir;
        const QString r0 = dir.filePath(QStringLiteral("trtllm-trace-7-rank-0.json"));
        QVERIFY(writeTrace(r0, trtllmRankTrace(0, 2, 3)));
        StepTimelineOptions options;
        options.limits.maxNames = 1;
        const StepTimeline t = readStepTimeline({r0}, options);
        const StepLane &l = t.lanes[0];
        QCOMPARE(l.labels, QStringList{QStringLiteral("step[EXTEND bs=4 toks=512]")});
        QCOMPARE(l.steps.back().label, -1);
        QCOMPARE(l.labelOf(l.steps.back()), QString());
        QCOMPARE(l.steps.back().kind, StepKind::Decode); // the kind does not depend on the label being kept
    }

    void unreadableAndMissingFiles()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("trtllm-trace-7-rank-0.json"));
        QVERIFY(writeTrace(bad, "\"just a string\""));
        const QString gone = dir.filePath(QStringLiteral("trtllm-trace-7-rank-1.json"));
        const StepTimeline t = readStepTimeline({bad, gone});
        QCOMPARE(t.lanes.size(), 2);
        QVERIFY2(t.lanes[0].error.contains(QStringLiteral("not a trace")), qPrintable(t.lanes[0].error));
        QVERIFY(!t.lanes[1].error.isEmpty());
        QCOMPARE(t.lanes[1].rank, 1); // from the file name
        QCOMPARE(t.keptSteps(), 0);
        QVERIFY(!t.cancelled);
    }

    void cancelledBeforeStart()
    {
        QTemporaryDir dir;
        const QString r0 = dir.filePath(QStringLiteral("trtllm-trace-7-rank-0.json"));
        QVERIFY(writeTrace(r0, trtllmRankTrace(0, 2, 10)));
        std::atomic<bool> cancel{true};
        const StepTimeline t = readStepTimeline({r0, r0}, {}, &cancel);
        QVERIFY(t.cancelled);
        QVERIFY(t.lanes.isEmpty());
    }

    // Cancel while a big file is being read: the reader stops at its next block, long before the
    // end, and no later file is opened.
    void cancelStopsTheReadMidFile()
    {
        QTemporaryDir dir;
        const QString big = dir.filePath(QStringLiteral("trtllm-trace-7-rank-0.json"));
        const QString next = dir.filePath(QStringLiteral("trtllm-trace-7-rank-1.json"));
        QVERIFY(writeTrace(big, trtllmRankTrace(0, 2, 10, 250'000))); // ~28 MB
        QVERIFY(writeTrace(next, trtllmRankTrace(1, 2, 10)));
        std::atomic<bool> cancel{false};
        TraceLoadProgress progress;
        // Cancels as soon as the first block was taken from the file.
        std::thread canceller([&] {
            while (progress.bytesDone.load() == 0)
                std::this_thread::yield();
            cancel.store(true);
        });
        const StepTimeline t = readStepTimeline({big, next}, {}, &cancel, &progress);
        canceller.join();
        QVERIFY(t.cancelled);
        QCOMPARE(t.lanes.size(), 1); // the second file was never opened
        QVERIFY2(t.lanes[0].error.contains(QStringLiteral("cancelled")), qPrintable(t.lanes[0].error));
        QVERIFY2(t.lanes[0].events < 250'000 / 2, qPrintable(QString::number(t.lanes[0].events)));
    }
};

QTEST_GUILESS_MAIN(TestTraceSteps)
#include "tst_trace_steps.moc"
