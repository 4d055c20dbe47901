#pragma once
// Spin boxes the designer's forms share.
#include <QDoubleSpinBox>

namespace sb::ui {

// Seconds, as wide as the validator accepts, negatives included: out-of-range values are its to
// report (WorkloadForm.cpp), not the spin box's to clamp.
inline QDoubleSpinBox *secondsBox()
{
    constexpr double kSpan = 1e7;
    auto *box = new QDoubleSpinBox;
    box->setRange(-kSpan, kSpan);
    box->setDecimals(2);
    box->setSuffix(QStringLiteral(" s"));
    box->setAccelerated(true);
    return box;
}

} // namespace sb::ui
