#pragma once
// `workload.images`: off, or count × width × height in PNG or JPEG (synthetic images added to
// every chat request). Out-of-range values are the validator's to report, with the CLI's words.
#include "spec/WorkloadShapes.h"
#include <QWidget>
#include <optional>

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace sb::ui {

class ImagesEditor : public QWidget
{
    Q_OBJECT
public:
    explicit ImagesEditor(QWidget *parent = nullptr);
    void setImages(const std::optional<ImageSpec> &images); // emits nothing
    std::optional<ImageSpec> images() const;

    QCheckBox *enabledBox() const { return m_on; }
    QSpinBox *countBox() const { return m_count; }
    QSpinBox *widthBox() const { return m_width; }
    QSpinBox *heightBox() const { return m_height; }
    QComboBox *formatBox() const { return m_format; }

Q_SIGNALS:
    void edited();

private:
    void updateEnabled();

    QCheckBox *m_on = nullptr;
    QSpinBox *m_count = nullptr;
    QSpinBox *m_width = nullptr;
    QSpinBox *m_height = nullptr;
    QComboBox *m_format = nullptr;
    bool m_loading = false;
};

} // namespace sb::ui
