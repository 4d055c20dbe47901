// The Results view's Trace tab on a real window: the stored trace_summary (steps per kind with
// percentiles, ranks, top ops sortable), the step timeline read off the UI thread (one lane per
// rank, steps per kind, hover read-out, zoom and reset), Cancel stopping the read, a stale read
// dropped when another cell is selected, and the states (no profiler, files gone, unreadable,
// capped).
#include "ResultsFixture.h"
#include "ScreenshotSupport.h"
#include "SyntheticTraces.h"
#include "TestSupport.h"
#include "results/ResultsView.h"
#include "results/StepTimelineView.h"
#include "results/TraceTab.h"
#include "style/Theme.h"
#include "trace/TraceSummarizer.h"
#include <QApplication>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QThread>
#include <QToolButton>
#include <QWheelEvent>

using namespace sb;
using namespace sb::ui;
using sbtest::syntheticStepDur;
using sbtest::syntheticStepStart;

using sbtest::countKind;

class TestTraceTab : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_r0, m_r1;
    SweepResults m_results;

    // Cell 0: two TensorRT-LLM ranks (2 extend + 10 decode; 2 + 9) with their summary; cell 1: no
    // profiler; cell 2: traces no longer on disk; cell 3: an unreadable trace.
    std::unique_ptr<ResultsView> makeView()
    {
        auto view = std::make_unique<ResultsView>();
        view->setResults(m_results, m_dir.path());
        view->resize(1400, 900);
        view->show();
        if (!QTest::qWaitForWindowExposed(view.get()))
            return nullptr;
        return view;
    }
    static QTabWidget *cellTabs(ResultsView &v) { return v.findChild<QTabWidget *>(QStringLiteral("cellTabs")); }

private Q_SLOTS:
    void initTestCase()
    {
        m_r0 = m_dir.filePath(QStringLiteral("trtllm-trace-7-rank-0.json"));
        m_r1 = m_dir.filePath(QStringLiteral("trtllm-trace-7-rank-1.json"));
        QVERIFY(sbtest::writeTrace(m_r0, sbtest::trtllmRankTrace(0, 2, 10)));
        QVERIFY(sbtest::writeTrace(m_r1, sbtest::trtllmRankTrace(1, 2, 9)));
        const QString bad = m_dir.filePath(QStringLiteral("trtllm-trace-9-rank-0.json"));
        QVERIFY(sbtest::writeTrace(bad, "\"just a string\""));
        m_results = sbtest::makeSweepResults(2, {1, 4});
        for (CellResult &c : m_results.cells)
            c.traces.clear();
        m_results.cells[0].traces = {m_r0, m_r1};
        m_results.cells[0].profilerWindow = ProfilerWindowResult{};
        m_results.cells[0].traceSummary = summarizeTraces({m_r0, m_r1});
        m_results.cells[2].traces = {m_dir.filePath(QStringLiteral("moved/trtllm-trace-8-rank-0.json"))};
        m_results.cells[2].traceSummary = m_results.cells[0].traceSummary;
        m_results.cells[3].traces = {bad};
    }
    void init() { sbtest::failOnQtWarnings(); }

    // The stored summary: steps per kind with percentiles, the rank warning, the ops tables.
    void summaryShown()
    {
        auto view = makeView();
        QVERIFY(view);
        view->selectCell(0);
        view->showTraceTab();
        QCOMPARE(cellTabs(*view)->tabText(cellTabs(*view)->currentIndex()), QStringLiteral("Trace"));
        TraceTab *tab = view->traceTab();
        const QString steps = tab->findChild<QTextBrowser *>(QStringLiteral("traceSteps"))->toPlainText();
        QVERIFY2(steps.contains(QStringLiteral("All 2 trace files")), qPrintable(steps));
        QVERIFY(steps.contains(QStringLiteral("23 steps")));
        QVERIFY(steps.contains(QStringLiteral("prefill")) && steps.contains(QStringLiteral("decode")));
        QVERIFY(steps.contains(QStringLiteral("p99 ms")));
        QVERIFY(steps.contains(QStringLiteral("GPU busy")));
        QVERIFY2(steps.contains(QStringLiteral("rank 0: 12 steps, profile 7; rank 1: 11 steps")), qPrintable(steps)); // the rank warning
        QTableWidget *kernels = tab->findChild<QTableWidget *>(QStringLiteral("traceKernels"));
        QCOMPARE(kernels->item(0, 0)->text(), QStringLiteral("sm80_xmma_gemm_bf16"));
        QVERIFY(kernels->isSortingEnabled());
        QCOMPARE(kernels->item(0, 2)->text(), QStringLiteral("23"));
        // One file's figures.
        auto *scope = tab->findChild<QComboBox *>(QStringLiteral("traceScope"));
        QCOMPARE(scope->count(), 3);
        scope->setCurrentIndex(2);
        const QString rank1 = tab->findChild<QTextBrowser *>(QStringLiteral("traceSteps"))->toPlainText();
        QVERIFY2(rank1.contains(QStringLiteral("rank 1 · trtllm-trace-7-rank-1.json")) && rank1.contains(QStringLiteral("11 steps")), qPrintable(rank1));

        view->selectCell(1);
        QCOMPARE(tab->state(), TraceTab::State::NoProfiler);
        QVERIFY(tab->statusText().contains(QStringLiteral("No profiler window")));
    }

    // The timeline: one lane per rank, the steps of each kind, hover, zoom and reset.
    void timelineLanesHoverZoom()
    {
        auto view = makeView();
        QVERIFY(view);
        TraceTab *tab = view->traceTab();
        view->selectCell(0);
        QCOMPARE(tab->state(), TraceTab::State::NotLoaded); // nothing read while the tab is hidden
        QSignalSpy finished(tab, &TraceTab::loadFinished);
        view->showTraceTab();
        QVERIFY(sbtest::waitForSignal(finished, 10000));
        QCOMPARE(tab->state(), TraceTab::State::Loaded);
        StepTimelineView *tl = tab->timelineView();
        const StepTimeline *t = tl->timeline();
        QVERIFY(t);
        QCOMPARE(t->lanes.size(), 2);
        QCOMPARE(t->lanes[0].rank, 0);
        QCOMPARE(t->lanes[1].rank, 1);
        QCOMPARE(countKind(t->lanes[0], StepKind::Prefill), 2);
        QCOMPARE(countKind(t->lanes[0], StepKind::Decode), 10);
        QCOMPARE(countKind(t->lanes[1], StepKind::Prefill), 2);
        QCOMPARE(countKind(t->lanes[1], StepKind::Decode), 9);
        const QString legend = tab->findChild<QLabel *>(QStringLiteral("traceLegend"))->text();
        QVERIFY2(legend.contains(QStringLiteral("prefill 4")) && legend.contains(QStringLiteral("decode 19")), qPrintable(legend));
        QVERIFY(tab->statusText().contains(QStringLiteral("2 lanes")));
        tl->grab(); // painted once, without a warning
        QVERIFY(tl->paintedBars() > 0);

        // Step 3 of rank 1: a decode step of 4 ms, 30 ms after the first step.
        const QPoint at = tl->pointAt(1, syntheticStepStart(3) - 1000 + syntheticStepDur(3) / 2);
        const QString expected = QStringLiteral("rank 1 · step[DECODE bs=4]\n4.000 ms · at 30.00 ms · batch 4");
        QCOMPARE(tl->readoutAt(at), expected);
        QTest::mouseMove(tl, at);
        QTRY_COMPARE(tl->hoverText(), expected);
        QCOMPARE(tl->readoutAt(tl->pointAt(0, syntheticStepStart(11) - 1000 + 6000)), QStringLiteral("rank 0 · step[DECODE bs=4]\n12.00 ms · at 110.0 ms · batch 4"));
        QCOMPARE(tl->readoutAt(QPoint(2, 2)), QString()); // over the lane names: nothing

        // The wheel zooms around the cursor; Reset zoom shows the whole window again.
        auto *reset = tab->findChild<QToolButton *>(QStringLiteral("traceResetZoom"));
        QVERIFY(!reset->isEnabled());
        const double span = tl->viewEnd() - tl->viewStart();
        const double under = syntheticStepStart(3) - 1000 + syntheticStepDur(3) / 2;
        QWheelEvent wheel(at, tl->mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(tl, &wheel);
        QVERIFY(tl->isZoomed());
        QVERIFY(std::abs((tl->viewEnd() - tl->viewStart()) - span * 0.64) < span * 1e-6);
        QVERIFY(std::abs(tl->pointAt(1, under).x() - at.x()) <= 1); // the time under the cursor stayed
        QVERIFY(reset->isEnabled());
        QTest::mouseClick(reset, Qt::LeftButton);
        QVERIFY(!tl->isZoomed());
        QCOMPARE(tl->viewEnd(), t->endUs);
        // A drag zooms to the dragged span.
        const QPoint a = tl->pointAt(0, 20000), b = tl->pointAt(0, 50000);
        QTest::mousePress(tl, Qt::LeftButton, {}, a);
        QTest::mouseMove(tl, b);
        QTest::mouseRelease(tl, Qt::LeftButton, {}, b);
        QVERIFY(tl->isZoomed());
        QVERIFY2(std::abs(tl->viewStart() - 20000) < 1000 && std::abs(tl->viewEnd() - 50000) < 1000,
                 qPrintable(QStringLiteral("%1 %2").arg(tl->viewStart()).arg(tl->viewEnd())));
        QTest::mouseDClick(tl, Qt::LeftButton, {}, a);
        QVERIFY(!tl->isZoomed());
    }

    // Cancel sets the flag the reader polls: the read stops and nothing is shown. The reader
    // here waits for the flag before reading (a slow read, deterministically); without a working
    // Cancel it would read everything after 10 s.
    void cancelStopsTheRead()
    {
        auto view = makeView();
        QVERIFY(view);
        TraceTab *tab = view->traceTab();
        std::atomic<bool> sawCancel{false};
        std::atomic<qint64> events{-1};
        tab->setReader([&](const QStringList &paths, const StepTimelineOptions &o, const std::atomic<bool> *cancel, TraceLoadProgress *p) {
            const QDeadlineTimer until(10000);
            while (!cancel->load() && !until.hasExpired())
                QThread::msleep(5);
            sawCancel.store(cancel->load());
            StepTimeline t = readStepTimeline(paths, o, cancel, p);
            events.store(t.lanes.isEmpty() ? 0 : t.lanes[0].events);
            return t;
        });
        view->selectCell(0);
        QSignalSpy finished(tab, &TraceTab::loadFinished);
        view->showTraceTab();
        QCOMPARE(tab->state(), TraceTab::State::Loading);
        auto *cancel = tab->findChild<QPushButton *>(QStringLiteral("traceCancel"));
        QVERIFY(cancel->isVisible());
        QVERIFY(tab->findChild<QProgressBar *>(QStringLiteral("traceProgress"))->isVisible());
        QTest::qWait(50); // the window keeps answering while the read runs
        QCOMPARE(tab->state(), TraceTab::State::Loading);
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(sbtest::waitForSignal(finished, 5000));
        QVERIFY(sawCancel.load());
        QCOMPARE(events.load(), 0);
        QCOMPARE(tab->state(), TraceTab::State::Cancelled);
        QVERIFY(!tab->loadedTimeline());
        QVERIFY(!cancel->isVisible());
        auto *reload = tab->findChild<QPushButton *>(QStringLiteral("traceReload"));
        QVERIFY(reload->isVisible());
        tab->setReader(&readStepTimeline);
        QTest::mouseClick(reload, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 10000);
        QCOMPARE(tab->state(), TraceTab::State::Loaded);
    }

    // A read that ends after another cell was selected is dropped, not shown over that cell.
    void staleReadDropped()
    {
        auto view = makeView();
        QVERIFY(view);
        TraceTab *tab = view->traceTab();
        std::atomic<bool> release{false}, returned{false};
        tab->setReader([&](const QStringList &paths, const StepTimelineOptions &o, const std::atomic<bool> *, TraceLoadProgress *p) {
            const QDeadlineTimer until(10000);
            while (!release.load() && !until.hasExpired())
                QThread::msleep(5);
            StepTimeline t = readStepTimeline(paths, o, nullptr, p); // ignores the cancel: only the drop can hide it
            returned.store(true);
            return t;
        });
        QSignalSpy finished(tab, &TraceTab::loadFinished);
        view->selectCell(0);
        view->showTraceTab();
        QCOMPARE(tab->state(), TraceTab::State::Loading);
        view->selectCell(1);
        QCOMPARE(tab->state(), TraceTab::State::NoProfiler);
        release.store(true);
        QTRY_VERIFY(returned.load());
        QTest::qWait(200); // the worker's result reaches the UI thread
        QCOMPARE(tab->state(), TraceTab::State::NoProfiler);
        QVERIFY(!tab->timelineView()->timeline());
        QCOMPARE(finished.size(), 0);
    }

    // A lane of 200,000 steps paints as at most one bar per pixel column (runs of a kind merged),
    // so a zoomed-out timeline costs the same whatever the trace holds.
    void bigLanePaintsBounded()
    {
        auto timeline = std::make_shared<StepTimeline>();
        StepLane lane;
        lane.rank = 0;
        for (int i = 0; i < 200'000; ++i)
            lane.steps.push_back(TimelineStep{12.0 * i, 10, i % 50 == 0 ? StepKind::Prefill : StepKind::Decode, 8, -1, -1});
        lane.maxDurUs = 10;
        timeline->lanes.append(lane);
        timeline->endUs = 12.0 * 200'000;
        StepTimelineView view;
        view.resize(640, 200);
        view.setTimeline(timeline);
        QElapsedTimer clock;
        clock.start();
        view.grab();
        const qint64 ms = clock.elapsed();
        QVERIFY2(view.paintedBars() <= 2 * qsizetype(view.plotRect().width()), qPrintable(QString::number(view.paintedBars())));
        QVERIFY(view.paintedBars() > 0);
        qInfo("200,000 steps painted as %lld bars in %lld ms", qlonglong(view.paintedBars()), qlonglong(ms));
        view.setView(0, 235); // 20 steps, pixels apart: each its own bar
        view.grab();
        QCOMPARE(view.paintedBars(), 20);
        QVERIFY2(ms < 1000, qPrintable(QString::number(ms))); // a paint never stalls the window
    }

    // Each section in both palettes, saved with SWEEPBENCH_SCREENSHOT_DIR for a person to judge;
    // every one paints without a Qt warning.
    void screenshots()
    {
        auto view = makeView();
        QVERIFY(view);
        view->resize(1024, 700);
        TraceTab *tab = view->traceTab();
        QSignalSpy finished(tab, &TraceTab::loadFinished);
        view->selectCell(0);
        view->showTraceTab();
        QVERIFY(sbtest::waitForSignal(finished, 10000));
        auto *sections = tab->findChild<QTabWidget *>(QStringLiteral("traceSections"));
        StepTimelineView *tl = tab->timelineView();
        for (const ThemeMode mode : {ThemeMode::Light, ThemeMode::Dark}) {
            applyTheme(mode);
            const QString theme = mode == ThemeMode::Dark ? QStringLiteral("dark") : QStringLiteral("light");
            sections->setCurrentIndex(0);
            tl->resetZoom();
            QTest::mouseMove(tl, tl->pointAt(1, syntheticStepStart(3) - 1000 + syntheticStepDur(3) / 2));
            sbtest::saveScreenshot(tab, QStringLiteral("trace-timeline-%1.png").arg(theme));
            tl->setView(25000, 60000);
            sbtest::saveScreenshot(tab, QStringLiteral("trace-timeline-zoomed-%1.png").arg(theme));
            for (int i = 1; i < sections->count(); ++i) {
                sections->setCurrentIndex(i);
                sbtest::saveScreenshot(tab, QStringLiteral("trace-section%1-%2.png").arg(i).arg(theme));
            }
        }
        applyTheme(ThemeMode::Light);
    }

    void missingUnreadableCapped()
    {
        auto view = makeView();
        QVERIFY(view);
        TraceTab *tab = view->traceTab();
        view->showTraceTab();
        view->selectCell(2);
        QCOMPARE(tab->state(), TraceTab::State::Missing);
        QVERIFY(tab->statusText().contains(QStringLiteral("no longer on disk")));
        QCOMPARE(tab->findChild<QTabWidget *>(QStringLiteral("traceSections"))->currentIndex(), 1); // the summary still there

        QSignalSpy finished(tab, &TraceTab::loadFinished);
        view->selectCell(3);
        QVERIFY(sbtest::waitForSignal(finished, 10000));
        QCOMPARE(tab->state(), TraceTab::State::Unreadable);
        QVERIFY2(tab->statusText().contains(QStringLiteral("not a trace")), qPrintable(tab->statusText()));

        StepTimelineOptions small;
        small.maxStepsPerLane = 5;
        tab->setOptions(small);
        view->selectCell(0);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 2, 10000);
        QCOMPARE(tab->state(), TraceTab::State::Loaded);
        QVERIFY2(tab->statusText().contains(QStringLiteral("rank 0 (trtllm-trace-7-rank-0.json): the first 5 of 12 steps are shown")),
                 qPrintable(tab->statusText()));
        QCOMPARE(qsizetype(tab->timelineView()->timeline()->lanes[1].steps.size()), 5);
    }
};

QTEST_MAIN(TestTraceTab)
#include "tst_trace_tab.moc"
