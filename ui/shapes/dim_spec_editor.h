#pragma once
// Edits one dimension's entry in a single row of fields: the kind (STATIC,
// AUTO, DYNAMIC, a named Dim, A*dim + B, an int) and only the fields that
// kind takes (name, min, max, coefficient, root Dim, offset, value).
#include <QWidget>

#include "ui/shapes/spec_edits.h"

class QComboBox;
class QSpinBox;
class QToolButton;

namespace exportlens::ui {

class DimSpecEditor : public QWidget {
  Q_OBJECT
 public:
  /// The kinds the editor offers, in the order of its combo box.
  enum Choice { Static, Auto, Dynamic, Named, Derived, Integer };

  explicit DimSpecEditor(QWidget* parent = nullptr);

  /// Dims the spec already declares, offered for names and roots, with their bounds.
  void setKnownDims(const std::map<std::string, symbolic::DimDecl>& dims);
  void setValue(const DimEdit& edit);
  DimEdit value() const;
  /// Why value() is not a valid entry (a Dim needs a Python name), or empty.
  QString problem() const;

  Choice choice() const;
  void setChoice(Choice choice);
  /// The fields, for tests and keyboard users.
  QComboBox* kindBox() const { return kind_; }
  QComboBox* nameBox() const { return name_; }
  QSpinBox* minBox() const { return min_; }
  QSpinBox* maxBox() const { return max_; }
  QSpinBox* coeffBox() const { return coeff_; }
  QSpinBox* offsetBox() const { return offset_; }
  QSpinBox* valueBox() const { return value_; }

 signals:
  /// The user confirmed the entry with ✓ (Enter is the item delegate's).
  void editingDone();

 private:
  void showFieldsFor(Choice choice);
  void loadBoundsOf(const QString& name);
  static void setOptional(QSpinBox* box, const std::optional<int64_t>& v);
  static std::optional<int64_t> optional(const QSpinBox* box);

  QComboBox* kind_;
  QComboBox* name_;  // Named: the Dim; Derived: its root
  QSpinBox* coeff_;
  QSpinBox* offset_;
  QSpinBox* min_;
  QSpinBox* max_;
  QSpinBox* value_;
  QToolButton* done_;
  std::map<std::string, symbolic::DimDecl> known_;
};

}  // namespace exportlens::ui
