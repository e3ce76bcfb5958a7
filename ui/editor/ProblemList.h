#pragma once

#include "ui/project/ModelSummary.h"

#include <QListWidget>

#include <vector>

namespace sysid::ui {

class ModelEditor;

// The problems of the model text, one row each: "line:column  message", in text order, after each
// check of the editor. Clicking a row (or Enter on it) puts the editor's cursor at that place.
// Hidden while the model has none, so it takes no room from a valid model.
class ProblemList : public QListWidget {
    Q_OBJECT
public:
    explicit ProblemList(ModelEditor* editor, QWidget* parent = nullptr);

    void setProblems(const std::vector<model::ModelDiagnostic>& problems);
    // A row's text: "3:5  message", "3  message" without a column, the message without a line.
    static QString rowText(const model::ModelDiagnostic& d);

private:
    void jump(const QListWidgetItem* item);

    ModelEditor* editor_;
    std::vector<model::ModelDiagnostic> problems_;
};

}  // namespace sysid::ui
