#include "designer/LaunchVariantsEditor.h"
#include "designer/FieldErrors.h"
#include "designer/LaunchEditor.h"
#include "launch/CommandLine.h"
#include "spec/LaunchVariants.h"
#include "spec/SpecRules.h"
#include <QComboBox>
#include <QFont>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QStackedWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sb::ui {

namespace {

constexpr int kPreviewNames = 12; // series named in the preview; the rest are counted

QTableWidget *makeTable(const QString &objectName, const QStringList &headers, const QStringList &tips)
{
    auto *t = new QTableWidget(0, int(headers.size()));
    t->setObjectName(objectName);
    t->setHorizontalHeaderLabels(headers);
    for (int c = 0; c < headers.size(); ++c)
        t->horizontalHeaderItem(c)->setToolTip(tips.value(c));
    t->horizontalHeader()->setStretchLastSection(true);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 8);
    t->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    t->horizontalHeader()->setFont(QFont()); // headers in the form's font, values fixed-width
    t->horizontalHeader()->setDefaultSectionSize(t->fontMetrics().horizontalAdvance(QLatin1Char('m')) * 14);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setWordWrap(false);
    t->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // columns scroll; the form never widens
    // A few rows visible; more scroll inside the table, not the form.
    t->setMinimumHeight(t->verticalHeader()->defaultSectionSize() * 3 + t->horizontalHeader()->sizeHint().height() + 4);
    t->setMaximumHeight(t->verticalHeader()->defaultSectionSize() * 6 + t->horizontalHeader()->sizeHint().height() + 4);
    return t;
}

QString cellText(const QTableWidget *t, int row, int column)
{
    const QTableWidgetItem *item = t->item(row, column);
    return item ? item->text() : QString();
}

void setCellText(QTableWidget *t, int row, int column, const QString &text)
{
    if (QTableWidgetItem *item = t->item(row, column))
        item->setText(text);
    else
        t->setItem(row, column, new QTableWidgetItem(text));
}

bool rowBlank(const QTableWidget *t, int row)
{
    for (int c = 0; c < t->columnCount(); ++c)
        if (!cellText(t, row, c).trimmed().isEmpty())
            return false;
    return true;
}

// "A=1 B='x y'" → pairs; the names follow the environment editor's rule (parseEnvLines).
QList<QPair<QString, QString>> envFromWords(const QString &text, QString *error)
{
    const CommandLineSplit split = splitCommandLine(text);
    if (!split.error.isEmpty()) {
        *error = split.error;
        return {};
    }
    QList<QPair<QString, QString>> env;
    for (const QString &word : split.argv) {
        QString wordError;
        const auto one = word.contains(QLatin1Char('\n')) ? QList<QPair<QString, QString>>() : parseEnvLines(word, &wordError);
        if (one.size() != 1) {
            *error = QObject::tr("expected NAME=value words (NAME: letters, digits, '_'), got “%1”").arg(word.left(60));
            return {};
        }
        env += one;
    }
    return env;
}

QString envWords(const QList<QPair<QString, QString>> &env)
{
    QStringList words;
    for (const auto &[name, value] : env)
        words << name + QLatin1Char('=') + value;
    return joinCommandLine(words);
}

// "[3].name" → 3; -1 when `rest` does not start with an index.
int leadingIndex(const QString &rest, QString *after)
{
    static const QRegularExpression re(QStringLiteral("^\\[(\\d+)\\]"));
    const QRegularExpressionMatch m = re.match(rest);
    if (!m.hasMatch())
        return -1;
    *after = rest.mid(m.capturedLength());
    return m.captured(1).toInt();
}

} // namespace

LaunchVariantsEditor::LaunchVariantsEditor(QWidget *parent)
    : QWidget(parent)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(2);

    auto *top = new QHBoxLayout;
    m_form = new QComboBox;
    m_form->setObjectName(QStringLiteral("launchVariantsForm"));
    m_form->addItems({tr("none"), tr("a list"), tr("a matrix")});
    // The form is as narrow as the designer's other fields: the box never widens the pane.
    m_form->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_form->setMinimumContentsLength(8);
    m_form->setToolTip(tr("A configuration sweep: each variant is its own series SERVER[VARIANT] over the same points, "
                          "the server restarted with the variant's arguments and environment between variants"));
    m_add = new QPushButton(QStringLiteral("+"));
    m_add->setObjectName(QStringLiteral("launchVariantsAdd"));
    m_add->setToolTip(tr("Add a row"));
    m_remove = new QPushButton(QStringLiteral("−"));
    m_remove->setObjectName(QStringLiteral("launchVariantsRemove"));
    m_remove->setToolTip(tr("Remove the selected row"));
    for (QPushButton *b : {m_add, m_remove})
        b->setFixedWidth(b->fontMetrics().height() * 2 + 8);
    top->addWidget(m_form, 1);
    top->addWidget(m_add);
    top->addWidget(m_remove);
    outer->addLayout(top);

    m_list = makeTable(QStringLiteral("launchVariantsList"), {tr("Name"), tr("Args"), tr("Env")},
                       {tr("The series is SERVER[NAME]: unique, without [ or ]"),
                        tr("Appended to the command, split like the command line (quote with ' or \")"),
                        tr("NAME=value words, added to the launch's environment (replacing a variable of the same name)")});
    m_matrix = makeTable(QStringLiteral("launchVariantsMatrix"), {tr("Flag / var"), tr("Values")},
                         {tr("A flag (--max-num-seqs) or an environment variable name"),
                          tr("Values separated by blanks (quote one that has blanks); a flag's true passes --flag, false --no-flag")});
    m_stack = new QStackedWidget;
    m_stack->addWidget(new QWidget);
    m_stack->addWidget(m_list);
    m_stack->addWidget(m_matrix);
    m_stack->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    outer->addWidget(m_stack);

    m_preview = new QLabel;
    m_preview->setObjectName(QStringLiteral("launchVariantsPreview"));
    m_preview->setTextFormat(Qt::PlainText); // names are the user's text
    m_preview->setWordWrap(true);
    m_preview->setTextInteractionFlags(Qt::TextSelectableByMouse);
    outer->addWidget(m_preview);
    m_message = FieldErrors::messageLine();
    m_message->setObjectName(QStringLiteral("launchVariantsError"));
    m_message->setStyleSheet(QStringLiteral("color: %1;").arg(errorColor().name()));
    outer->addWidget(m_message);

    connect(m_form, &QComboBox::activated, this, [this](int i) { setForm(Form(i)); });
    connect(m_add, &QPushButton::clicked, this, &LaunchVariantsEditor::addRow);
    connect(m_remove, &QPushButton::clicked, this, &LaunchVariantsEditor::removeRow);
    for (QTableWidget *t : {m_list, m_matrix})
        connect(t, &QTableWidget::itemChanged, this, &LaunchVariantsEditor::changed);
    setLaunch({});
}

LaunchVariantsEditor::Form LaunchVariantsEditor::form() const
{
    return Form(m_form->currentIndex());
}

void LaunchVariantsEditor::setForm(Form form)
{
    m_form->setCurrentIndex(int(form));
    m_stack->setCurrentIndex(int(form));
    m_stack->setVisible(form != None);
    m_add->setEnabled(form != None);
    m_remove->setEnabled(form != None);
    // A new form starts with one row to type into.
    if (QTableWidget *t = table(); t && t->rowCount() == 0 && !m_loading) {
        m_loading = true;
        t->setRowCount(1);
        m_loading = false;
    }
    changed();
}

QTableWidget *LaunchVariantsEditor::table() const
{
    switch (form()) {
    case List: return m_list;
    case Matrix: return m_matrix;
    case None: break;
    }
    return nullptr;
}

void LaunchVariantsEditor::addRow()
{
    if (QTableWidget *t = table()) {
        t->insertRow(t->rowCount());
        t->setCurrentCell(t->rowCount() - 1, 0);
        changed();
    }
}

void LaunchVariantsEditor::removeRow()
{
    QTableWidget *t = table();
    if (!t || t->rowCount() == 0)
        return;
    const int row = t->currentRow() >= 0 ? t->currentRow() : t->rowCount() - 1;
    t->removeRow(row);
    m_specErrors.clear(); // their rows moved; the next validation places them again
    changed();
}

void LaunchVariantsEditor::changed()
{
    if (m_loading)
        return;
    validateLocal();
    Q_EMIT edited();
}

void LaunchVariantsEditor::setServerName(const QString &name)
{
    if (name == m_server)
        return;
    m_server = name;
    refresh();
}

QList<LaunchVariant> LaunchVariantsEditor::readList(QList<RowError> *errors) const
{
    QList<LaunchVariant> out;
    for (int r = 0; r < m_list->rowCount(); ++r) {
        if (rowBlank(m_list, r))
            continue;
        LaunchVariant v;
        v.name = cellText(m_list, r, NameColumn).trimmed();
        const CommandLineSplit args = splitCommandLine(cellText(m_list, r, ArgsColumn));
        if (!args.error.isEmpty())
            errors->append({List, r, ArgsColumn, tr("row %1, arguments: %2").arg(r + 1).arg(args.error)});
        v.args = args.argv;
        QString envError;
        v.env = envFromWords(cellText(m_list, r, EnvColumn), &envError);
        if (!envError.isEmpty())
            errors->append({List, r, EnvColumn, tr("row %1, environment: %2").arg(r + 1).arg(envError)});
        out.append(v);
    }
    return out;
}

QList<LaunchMatrixAxis> LaunchVariantsEditor::readMatrix(QList<RowError> *errors) const
{
    QList<LaunchMatrixAxis> out;
    for (int r = 0; r < m_matrix->rowCount(); ++r) {
        if (rowBlank(m_matrix, r))
            continue;
        LaunchMatrixAxis axis;
        axis.key = cellText(m_matrix, r, KeyColumn).trimmed();
        if (axis.key.isEmpty())
            errors->append({Matrix, r, KeyColumn, tr("row %1: expected a flag (--name) or an environment variable name").arg(r + 1)});
        const CommandLineSplit values = splitCommandLine(cellText(m_matrix, r, ValuesColumn));
        if (!values.error.isEmpty())
            errors->append({Matrix, r, ValuesColumn, tr("row %1, values: %2").arg(r + 1).arg(values.error)});
        axis.values = values.argv;
        out.append(axis);
    }
    return out;
}

void LaunchVariantsEditor::fillList(const QList<LaunchVariant> &variants)
{
    m_list->setRowCount(int(variants.size()));
    for (int r = 0; r < variants.size(); ++r) {
        setCellText(m_list, r, NameColumn, variants[r].name);
        setCellText(m_list, r, ArgsColumn, joinCommandLine(variants[r].args));
        setCellText(m_list, r, EnvColumn, envWords(variants[r].env));
    }
}

void LaunchVariantsEditor::fillMatrix(const QList<LaunchMatrixAxis> &matrix)
{
    m_matrix->setRowCount(int(matrix.size()));
    for (int r = 0; r < matrix.size(); ++r) {
        setCellText(m_matrix, r, KeyColumn, matrix[r].key);
        setCellText(m_matrix, r, ValuesColumn, joinCommandLine(matrix[r].values));
    }
}

void LaunchVariantsEditor::setLaunch(const LaunchSpec &l)
{
    m_loading = true;
    QList<RowError> ignored;
    // Rows being typed stay as they are while they read as what the spec holds.
    if (readList(&ignored) != l.variants || !ignored.isEmpty())
        fillList(l.variants);
    ignored.clear();
    if (readMatrix(&ignored) != l.matrix || !ignored.isEmpty())
        fillMatrix(l.matrix);
    const Form shown = !l.matrix.isEmpty() ? Matrix : !l.variants.isEmpty() ? List : form() == None ? None : form();
    // An empty table of the form being edited stays open; a spec without variants otherwise shows none.
    const bool keepEmptyForm = shown != None && l.variants.isEmpty() && l.matrix.isEmpty() && table() && table()->rowCount() > 0;
    const Form f = (l.variants.isEmpty() && l.matrix.isEmpty() && !keepEmptyForm) ? None : shown;
    m_form->setCurrentIndex(int(f));
    m_stack->setCurrentIndex(int(f));
    m_stack->setVisible(f != None);
    m_add->setEnabled(f != None);
    m_remove->setEnabled(f != None);
    m_loading = false;
    validateLocal();
}

void LaunchVariantsEditor::applyTo(LaunchSpec &l) const
{
    QList<RowError> errors;
    const QList<LaunchVariant> list = readList(&errors);
    const QList<LaunchMatrixAxis> matrix = readMatrix(&errors);
    if (!errors.isEmpty() && form() != None)
        return; // the last readable variants stay until the row reads again
    l.variants = form() == List ? list : QList<LaunchVariant>();
    l.matrix = form() == Matrix ? matrix : QList<LaunchMatrixAxis>();
}

void LaunchVariantsEditor::validateLocal()
{
    m_localErrors.clear();
    if (form() == List)
        readList(&m_localErrors);
    else if (form() == Matrix)
        readMatrix(&m_localErrors);
    refresh();
}

void LaunchVariantsEditor::showDiagnostics(const QList<SpecDiagnostic> &diags)
{
    static const QString base = QStringLiteral("launch.variants");
    m_specErrors.clear();
    m_generalErrors.clear();
    for (const SpecDiagnostic &d : diags) {
        if (!keyUnder(d.keyPath, base))
            continue;
        const QString mark = (d.isError() ? QStringLiteral("✗ ") : QStringLiteral("⚠ "));
        const QString rest = d.keyPath.mid(base.size());
        QString after;
        if (const int index = leadingIndex(rest, &after); index >= 0) {
            // List rows: the index counts the variants written, which are the table's non-blank rows.
            int row = -1;
            for (int r = 0, seen = -1; r < m_list->rowCount() && row < 0; ++r)
                if (!rowBlank(m_list, r) && ++seen == index)
                    row = r;
            const int column = after.startsWith(QLatin1String(".name")) ? NameColumn
                               : after.startsWith(QLatin1String(".args")) ? ArgsColumn
                               : after.startsWith(QLatin1String(".env"))  ? EnvColumn
                                                                          : -1;
            if (row >= 0) {
                m_specErrors.append({List, row, column, mark + tr("row %1: %2").arg(row + 1).arg(d.message)});
                continue;
            }
        } else if (rest.startsWith(QLatin1Char('.'))) {
            const QString key = rest.mid(1);
            int row = -1;
            for (int r = 0; r < m_matrix->rowCount() && row < 0; ++r)
                if (cellText(m_matrix, r, KeyColumn).trimmed() == key)
                    row = r;
            if (row >= 0) {
                m_specErrors.append({Matrix, row, -1, mark + tr("row %1: %2").arg(row + 1).arg(d.message)});
                continue;
            }
        }
        m_generalErrors.append(mark + d.message);
    }
    refresh();
}

QString LaunchVariantsEditor::rowError(int row) const
{
    QStringList lines;
    for (const QList<RowError> *errors : {&m_localErrors, &m_specErrors})
        for (const RowError &e : *errors)
            if (e.form == form() && e.row == row)
                lines << e.message;
    return lines.join(QLatin1Char('\n'));
}

void LaunchVariantsEditor::refresh()
{
    // Row marks: an erroneous cell (or a whole row) gets the error colour and its message as a tooltip.
    const bool wasLoading = m_loading;
    m_loading = true; // colouring items emits itemChanged
    for (QTableWidget *t : {m_list, m_matrix}) {
        const Form f = t == m_list ? List : Matrix;
        for (int r = 0; r < t->rowCount(); ++r)
            for (int c = 0; c < t->columnCount(); ++c) {
                QStringList lines;
                for (const QList<RowError> *errors : {&m_localErrors, &m_specErrors})
                    for (const RowError &e : *errors)
                        if (e.form == f && e.row == r && (e.column < 0 || e.column == c))
                            lines << e.message;
                QTableWidgetItem *item = t->item(r, c);
                if (!item) {
                    if (lines.isEmpty())
                        continue;
                    item = new QTableWidgetItem;
                    t->setItem(r, c, item);
                }
                const QString tip = lines.join(QLatin1Char('\n'));
                if (item->toolTip() != tip)
                    item->setToolTip(tip);
                const QBrush brush = lines.isEmpty() ? QBrush() : QBrush(errorColor().lighter(170));
                if (item->background() != brush)
                    item->setBackground(brush);
            }
    }
    m_loading = wasLoading;

    QStringList messages;
    for (const QList<RowError> *errors : {&m_localErrors, &m_specErrors})
        for (const RowError &e : *errors)
            if (e.form == form())
                messages << (errors == &m_localErrors ? QStringLiteral("✗ ") + e.message : e.message);
    if (form() != None)
        messages += m_generalErrors;
    m_message->setText(messages.join(QLatin1Char('\n')));
    m_message->setToolTip(m_message->text());

    // The preview: the series the sweep will show, from the one expansion the engine uses.
    LaunchSpec l;
    applyTo(l);
    const QList<LaunchVariant> variants = form() == None ? QList<LaunchVariant>() : launchVariants(l);
    QString text;
    if (form() == Matrix && launchMatrixCombinations(l) > spec::kMaxLaunchVariants) {
        text = tr("More than %1 combinations: at most %1 variants").arg(spec::kMaxLaunchVariants);
    } else if (!variants.isEmpty()) {
        const QString server = m_server.isEmpty() ? tr("SERVER") : m_server;
        QStringList names;
        for (int i = 0; i < variants.size() && i < kPreviewNames; ++i)
            names << variantSeriesName(server, variants[i].name);
        if (variants.size() > kPreviewNames)
            names << tr("… and %1 more").arg(variants.size() - kPreviewNames);
        text = tr("%n series: ", nullptr, int(variants.size())) + names.join(QStringLiteral(", "));
    }
    m_preview->setText(text);
    m_preview->setVisible(!text.isEmpty());
}

} // namespace sb::ui
