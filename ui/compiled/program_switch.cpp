#include "ui/compiled/program_switch.h"

#include <QAction>
#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>

#include <algorithm>

#include "ui/compiled/compiled_session.h"
#include "ui/core/qstring_from.h"

namespace exportlens::ui {

ProgramSwitch::ProgramSwitch(CompiledSession* session, QWidget* parent)
    : QWidget(parent), session_(session), kind_(new QLabel), box_(new QComboBox(this)) {
  setObjectName(QStringLiteral("programSwitch"));
  kind_->setObjectName(QStringLiteral("archiveKind"));
  box_->setObjectName(QStringLiteral("programBox"));
  box_->setToolTip(tr("The archive's exported programs: choose the one shown"));
  box_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(6, 0, 6, 0);
  layout->addWidget(new QLabel(tr("Program"), this));
  layout->addWidget(box_);
  connect(this, &QObject::destroyed, kind_, [kind = kind_] { if (!kind->parent()) delete kind; });
  connect(box_, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (following_ || index < 0) return;
    current_ = box_->itemText(index);
    emit programChosen(current_);
  });
  connect(session_, &CompiledSession::contentsChanged, this, &ProgramSwitch::refresh);
  refresh();
}

void ProgramSwitch::setCurrentProgram(const QString& name) {
  current_ = name;
  following_ = true;
  box_->setCurrentIndex(box_->findText(name));
  following_ = false;
}

void ProgramSwitch::refresh() {
  const ArchiveContentsPtr& contents = session_->contents();
  following_ = true;
  box_->clear();
  if (contents && contents->programs.size() > 1)
    for (const std::string& program : contents->programs) box_->addItem(qs(program));
  if (contents && !contents->programs.empty() && current_.isEmpty()) {
    // What opening shows when no program is named: "model", else the first (sources::OpenRequest::program).
    const auto& programs = contents->programs;
    current_ = qs(std::find(programs.begin(), programs.end(), "model") != programs.end() ? std::string("model")
                                                                                        : programs.front());
  }
  box_->setCurrentIndex(box_->findText(current_));
  following_ = false;
  // Only an archive with more than one kind of thing, or several, needs saying.
  const bool plain = !contents || (contents->programs.size() <= 1 && contents->compiled.empty());
  kind_->setText(plain ? QString()
                       : tr("%1: %2").arg(QFileInfo(session_->archivePath()).fileName(), qs(contents->kind())));
  kind_->setToolTip(plain ? QString() : session_->archivePath());
  kind_->setVisible(!plain);
  if (toolbar_action_) toolbar_action_->setVisible(box_->count() > 1);
}

void ProgramSwitch::setToolBarAction(QAction* action) {
  toolbar_action_ = action;
  refresh();
}

}  // namespace exportlens::ui
