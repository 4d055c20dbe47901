#include "designer/ImagesEditor.h"
#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QSpinBox>

namespace sb::ui {

namespace {
// Wider than the bounds, negatives included: the validator reports a bad value with the CLI's
// words instead of the box clamping it silently; yet narrow enough for the form's width.
QSpinBox *sizeBox(const char *name, const QString &suffix, int span)
{
    auto *box = new QSpinBox;
    box->setObjectName(QString::fromLatin1(name));
    box->setRange(-span, span);
    box->setSuffix(suffix);
    box->setAccelerated(true);
    return box;
}
} // namespace

ImagesEditor::ImagesEditor(QWidget *parent) : QWidget(parent)
{
    m_on = new QCheckBox(tr("Add"));
    m_on->setObjectName(QStringLiteral("imagesOn"));
    m_on->setToolTip(tr("workload.images: count × width × height synthetic images (seeded by workload.seed) in every chat request, as image_url parts"));
    m_on->setAccessibleName(tr("Add images"));
    m_count = sizeBox("imageCount", tr(" ×"), 999);
    m_width = sizeBox("imageWidth", tr(" px"), 99999);
    m_height = sizeBox("imageHeight", tr(" px"), 99999);
    m_format = new QComboBox;
    m_format->setObjectName(QStringLiteral("imageFormat"));
    for (ImageFormat f : {ImageFormat::Png, ImageFormat::Jpeg})
        m_format->addItem(toString(f), int(f));
    // Two rows (on, count, format; then width × height): one row was wider than the form may be.
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(m_on, 0, 0);
    grid->addWidget(m_count, 0, 1);
    grid->addWidget(m_format, 0, 3);
    grid->addWidget(m_width, 1, 1);
    grid->addWidget(new QLabel(QStringLiteral("×")), 1, 2);
    grid->addWidget(m_height, 1, 3);
    grid->setColumnStretch(4, 1);
    setImages(std::nullopt);
    connect(m_on, &QCheckBox::toggled, this, [this] {
        updateEnabled();
        if (!m_loading)
            Q_EMIT edited();
    });
    for (QSpinBox *box : {m_count, m_width, m_height})
        connect(box, &QSpinBox::valueChanged, this, [this] {
            if (!m_loading)
                Q_EMIT edited();
        });
    connect(m_format, &QComboBox::activated, this, &ImagesEditor::edited);
}

void ImagesEditor::setImages(const std::optional<ImageSpec> &images)
{
    m_loading = true;
    const ImageSpec shown = images.value_or(ImageSpec());
    m_on->setChecked(images.has_value());
    m_count->setValue(shown.count);
    m_width->setValue(shown.width);
    m_height->setValue(shown.height);
    m_format->setCurrentIndex(m_format->findData(int(shown.format)));
    updateEnabled();
    m_loading = false;
}

std::optional<ImageSpec> ImagesEditor::images() const
{
    if (!m_on->isChecked())
        return std::nullopt;
    return ImageSpec{m_count->value(), m_width->value(), m_height->value(), ImageFormat(m_format->currentData().toInt())};
}

void ImagesEditor::updateEnabled()
{
    for (QWidget *w : std::initializer_list<QWidget *>{m_count, m_width, m_height, m_format})
        w->setEnabled(m_on->isChecked());
}

} // namespace sb::ui
