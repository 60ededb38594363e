#pragma once
// The spec as Python text (`dynamic_shapes = {...}` with its Dim lines):
// shows the current spec, and parses what the user types or pastes a moment
// after they stop; a parse error is shown with its line and column and
// underlined, and leaves the spec as it was.
#include <QTimer>
#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace exportlens::ui {

class SpecDocument;

class SpecTextEditor : public QWidget {
  Q_OBJECT
 public:
  explicit SpecTextEditor(SpecDocument* document, QWidget* parent = nullptr);

  QPlainTextEdit* editor() const { return text_; }
  /// The last parse error ("line 2, column 9: …"), empty when the text parses.
  QString errorText() const { return error_; }
  /// Parses now instead of after the typing pause.
  void parseNow();

 signals:
  /// The text failed to parse (message has the position) or parses again (empty).
  void parseErrorChanged(const QString& message);

 private:
  void showSpec();
  void showError(const QString& message, int line, int column);
  void clearError();

  SpecDocument* document_;
  QPlainTextEdit* text_;
  QLabel* status_;
  QTimer parse_timer_;
  QString error_;
  bool showing_ = false;  // writing the document's spec into the editor
};

}  // namespace exportlens::ui
