#pragma once
// The Launch section's variants (`launch.variants`, docs/spec-reference.md): no variants, the list
// form (a table of name, extra arguments, extra environment) or the matrix form (a table of flag
// or variable → values, every combination a variant). Arguments, environment and values are
// edited as shell-like lines (launch/CommandLine.h), so a value with blanks is quoted as a user
// would type it. Beneath the table: the series the sweep will show (SERVER[VARIANT], expanded by
// spec/LaunchVariants.h, the one place that expands them) and the errors, each marked on its row.
#include "spec/SpecDiagnostic.h"
#include "spec/SweepSpec.h"
#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTableWidget;

namespace sb::ui {

class LaunchVariantsEditor : public QWidget
{
    Q_OBJECT
public:
    enum Form { None = 0, List = 1, Matrix = 2 };
    enum ListColumn { NameColumn = 0, ArgsColumn = 1, EnvColumn = 2 };
    enum MatrixColumn { KeyColumn = 0, ValuesColumn = 1 };

    explicit LaunchVariantsEditor(QWidget *parent = nullptr);

    // Fills the tables unless they already read as these variants (a row being typed stays).
    void setLaunch(const LaunchSpec &launch);
    // Writes the variants or the matrix into `launch`; while a row cannot be read, both are left
    // as they were (hasLocalErrors() then says so, and the run is blocked).
    void applyTo(LaunchSpec &launch) const;
    void setServerName(const QString &name); // for the preview's series names
    bool hasLocalErrors() const { return !m_localErrors.isEmpty(); }
    // The spec's diagnostics under `launch.variants` (paths relative to the server).
    void showDiagnostics(const QList<SpecDiagnostic> &diags);

    Form form() const;
    void setForm(Form form); // as if picked in the box
    QTableWidget *listTable() const { return m_list; }
    QTableWidget *matrixTable() const { return m_matrix; }
    QPushButton *addButton() const { return m_add; }
    QPushButton *removeButton() const { return m_remove; }
    QLabel *preview() const { return m_preview; }
    QLabel *messageLine() const { return m_message; }
    // What is wrong with a row of the table shown ("" when nothing), spec errors and local ones.
    QString rowError(int row) const;

Q_SIGNALS:
    void edited();

private:
    struct RowError {
        Form form;
        int row;
        int column; // -1: the whole row
        QString message;
    };
    QTableWidget *table() const; // the one the form shows, or nullptr
    void addRow();
    void removeRow();
    void changed();
    // Reads the tables; rows with every cell blank are skipped. Local errors go to `errors`.
    QList<LaunchVariant> readList(QList<RowError> *errors) const;
    QList<LaunchMatrixAxis> readMatrix(QList<RowError> *errors) const;
    void fillList(const QList<LaunchVariant> &variants);
    void fillMatrix(const QList<LaunchMatrixAxis> &matrix);
    void validateLocal();
    void refresh(); // preview, row marks and the message line from m_localErrors + m_specErrors

    bool m_loading = false;
    QString m_server;
    QComboBox *m_form = nullptr;
    QStackedWidget *m_stack = nullptr;
    QTableWidget *m_list = nullptr;
    QTableWidget *m_matrix = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_remove = nullptr;
    QLabel *m_preview = nullptr;
    QLabel *m_message = nullptr;
    QList<RowError> m_localErrors;
    QList<RowError> m_specErrors;
    QStringList m_generalErrors; // spec errors about the variants as a whole
};

} // namespace sb::ui
