#pragma once
// What the workload will send, before anything is sent: the lengths requests
// ask for, as a histogram, and the first prompt's text. Both come from the engine's own code —
// the lengths from workload/WorkloadPlan (the seeded sampler every cell uses), the prompt from
// load/RequestFactory — so the preview cannot drift from what a run does.
#include "spec/SweepSpec.h"
#include <QList>
#include <QWidget>
#include <memory>

namespace sb {
class Dataset;
}

namespace sb::ui {

// The lengths (tokens) requests 0..n-1 of a measured phase ask for: input or output. Empty when
// the workload's shapes are invalid (the validator says why) or a dataset's prompts are text
// whose length only the server's tokenizer knows.
QList<int> plannedLengths(const WorkloadSpec &w, bool input, int n, std::shared_ptr<const Dataset> dataset = {});

struct LengthHistogram {
    int lo = 0, hi = 0;  // the lowest and highest length; bins split [lo, hi] evenly
    QList<int> counts;   // per bin
    int samples = 0;     // the number of lengths binned (= the sum of counts)
};
LengthHistogram histogramOf(const QList<int> &lengths, int bins);

// The first measured request's prompt text, as the engine builds it for the first server (its
// endpoint decides chat messages or a prompt), cut to `maxChars`. Empty when it cannot be built.
QString firstPromptText(const SweepSpec &spec, std::shared_ptr<const Dataset> dataset, int maxChars);

// Bars of a LengthHistogram with the range beneath; a caption names what is shown.
class LengthHistogramView : public QWidget
{
    Q_OBJECT
public:
    explicit LengthHistogramView(const QString &caption, QWidget *parent = nullptr);
    void setHistogram(const LengthHistogram &h, const QString &note = QString());
    const LengthHistogram &histogram() const { return m_histogram; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QString m_caption;
    QString m_note;
    LengthHistogram m_histogram;
};

} // namespace sb::ui
