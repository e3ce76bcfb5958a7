#pragma once

#include "engine/integrate/Intersample.h"

#include <QStringList>
#include <QTableWidget>

#include <map>
#include <string>

namespace sysid::ui {

// One row per model input with a combo of its intersample behaviour (the engine's table of
// spellings: hold, linear, spline). An input without a choice shows what the engine gives it:
// the model's declaration (input u hold), else linear (integrate::intersampleOf).
class IntersampleTable : public QTableWidget {
    Q_OBJECT

public:
    explicit IntersampleTable(QWidget* parent = nullptr);

    // The model's inputs and the behaviours it declares; choices for names that stay are kept.
    void setInputs(const QStringList& inputs, const std::map<std::string, integrate::Intersample>& declared = {});
    QStringList inputs() const { return inputs_; }
    void setChoices(const std::map<std::string, integrate::Intersample>& choices);
    // The choice of every input shown that differs from its default, and the choices of inputs not shown
    // (a project's entries survive a model that is being edited).
    std::map<std::string, integrate::Intersample> choices() const;

signals:
    void changed();

private:
    void rebuild();

    integrate::Intersample shown(const std::string& input) const;

    QStringList inputs_;
    std::map<std::string, integrate::Intersample> declared_;
    std::map<std::string, integrate::Intersample> choices_;
};

}  // namespace sysid::ui
