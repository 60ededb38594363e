#include "ui/shapes/dynamic_shapes_model.h"

#include <QColor>
#include <QFont>
#include <QFontDatabase>

#include "ui/core/shape_text.h"
#include "ui/shapes/dim_spec_text.h"
#include "ui/shapes/spec_document.h"
#include "ui/shapes/spec_session.h"

namespace exportlens::ui {

DynamicShapesModel::DynamicShapesModel(SpecSession* session, QObject* parent)
    : QAbstractItemModel(parent), session_(session) {
  connect(session->document(), &SpecDocument::specChanged, this, [this](SpecDocument::Origin origin) {
    if (origin == SpecDocument::Origin::Reset) {
      beginResetModel();
      rank_ = maxRank();
      rebuild();
      endResetModel();
    } else {
      refreshAll();
    }
  });
  connect(session, &SpecSession::resultChanged, this, &DynamicShapesModel::refreshAll);
}

void DynamicShapesModel::refreshAll() {
  for (size_t r = 0; r < rows_.size(); ++r) {
    const Row& row = rows_[r];
    emit dataChanged(createIndex(row.position, 0, quintptr(r)), createIndex(row.position, columnCount() - 1, quintptr(r)));
  }
}

namespace {

QString container_text(const symbolic::InputTree& t) {
  const int n = static_cast<int>(t.children.size());
  switch (t.kind) {
    case symbolic::InputTree::Kind::Tuple: return DynamicShapesModel::tr("tuple of %n", nullptr, n);
    case symbolic::InputTree::Kind::List: return DynamicShapesModel::tr("list of %n", nullptr, n);
    case symbolic::InputTree::Kind::Dict: return DynamicShapesModel::tr("dict of %n", nullptr, n);
    case symbolic::InputTree::Kind::Custom:
      return DynamicShapesModel::tr("%1 (%n fields)", nullptr, n).arg(QString::fromStdString(t.type_name));
    case symbolic::InputTree::Kind::Leaf: break;
  }
  return {};
}

}  // namespace

int DynamicShapesModel::addRows(const symbolic::InputTree& tree, int parent, const QString& label) {
  const int id = static_cast<int>(rows_.size());
  Row row;
  row.parent = parent;
  row.position = static_cast<int>(parent < 0 ? top_.size() : rows_[size_t(parent)].children.size());
  row.input = tree.kind == symbolic::InputTree::Kind::Leaf ? tree.leaf : -1;
  row.label = label;
  row.example = container_text(tree);
  rows_.push_back(row);
  (parent < 0 ? top_ : rows_[size_t(parent)].children).push_back(id);
  if (row.input >= 0 && size_t(row.input) < row_of_.size()) row_of_[size_t(row.input)] = id;
  const auto& inputs = session_->document()->inputs();
  for (size_t i = 0; i < tree.children.size(); ++i) {
    const symbolic::InputTree& child = tree.children[i];
    QString child_label;
    if (child.kind == symbolic::InputTree::Kind::Leaf && child.leaf >= 0 && size_t(child.leaf) < inputs.size()) {
      child_label = QString::fromStdString(inputs[size_t(child.leaf)].display_name());
    } else if (tree.kind == symbolic::InputTree::Kind::Dict) {
      child_label = label + "['" + QString::fromStdString(tree.keys[i]) + "']";
    } else if (tree.kind == symbolic::InputTree::Kind::Custom && i < tree.keys.size()) {
      child_label = label + "." + QString::fromStdString(tree.keys[i]);
    } else {
      child_label = label + "[" + QString::number(i) + "]";
    }
    addRows(child, id, child_label);
  }
  return id;
}

void DynamicShapesModel::rebuild() {
  rows_.clear();
  top_.clear();
  const auto& inputs = session_->document()->inputs();
  row_of_.assign(inputs.size(), -1);
  const auto& tree = session_->document()->inputTree();
  if (tree.empty()) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      symbolic::InputTree leaf;
      leaf.leaf = int(i);
      addRows(leaf, -1, QString::fromStdString(inputs[i].name));
    }
    return;
  }
  for (const auto& argument : tree) addRows(argument, -1, QString::fromStdString(argument.name));
}

const DynamicShapesModel::Row* DynamicShapesModel::rowOf(const QModelIndex& index) const {
  if (!index.isValid() || index.internalId() >= rows_.size()) return nullptr;
  return &rows_[size_t(index.internalId())];
}

const std::vector<int>& DynamicShapesModel::childrenOf(const QModelIndex& parent) const {
  if (!parent.isValid()) return top_;
  static const std::vector<int> none;
  const Row* row = rowOf(parent);
  return row && parent.column() == 0 ? row->children : none;
}

QModelIndex DynamicShapesModel::index(int row, int column, const QModelIndex& parent) const {
  const std::vector<int>& children = childrenOf(parent);
  if (row < 0 || row >= static_cast<int>(children.size()) || column < 0 || column >= columnCount()) return {};
  return createIndex(row, column, quintptr(children[size_t(row)]));
}

QModelIndex DynamicShapesModel::parent(const QModelIndex& child) const {
  const Row* row = rowOf(child);
  if (!row || row->parent < 0) return {};
  return createIndex(rows_[size_t(row->parent)].position, 0, quintptr(row->parent));
}

int DynamicShapesModel::inputAt(const QModelIndex& index) const {
  const Row* row = rowOf(index);
  return row ? row->input : -1;
}

QModelIndex DynamicShapesModel::inputIndex(int input, int column) const {
  if (input < 0 || size_t(input) >= row_of_.size() || row_of_[size_t(input)] < 0) return {};
  const int id = row_of_[size_t(input)];
  return createIndex(rows_[size_t(id)].position, column, quintptr(id));
}

QModelIndex DynamicShapesModel::dimIndex(int input, int dim) const { return inputIndex(input, FirstDim + dim); }

int DynamicShapesModel::maxRank() const {
  int rank = 0;
  for (const auto& in : session_->document()->inputs()) rank = std::max(rank, static_cast<int>(in.sizes.size()));
  return rank;
}

int DynamicShapesModel::rowCount(const QModelIndex& parent) const { return static_cast<int>(childrenOf(parent).size()); }

int DynamicShapesModel::columnCount(const QModelIndex&) const { return FirstDim + rank_ + 1; }

int DynamicShapesModel::dimOf(const QModelIndex& index) const {
  if (!index.isValid() || index.column() < FirstDim || index.column() >= solvedColumn()) return -1;
  const int dim = index.column() - FirstDim;
  const int input = inputAt(index);
  const auto& inputs = session_->document()->inputs();
  return input >= 0 && input < static_cast<int>(inputs.size()) && dim < static_cast<int>(inputs[size_t(input)].sizes.size())
             ? dim
             : -1;
}

bool DynamicShapesModel::violated(int input, int dim) const {
  const SolveResultPtr& result = session_->result();
  if (!result || result->violations.empty()) return false;
  const std::string source = symbolic::size_source(session_->document()->inputs()[input], dim);
  for (const auto& v : result->violations)
    if (v.source == source) return true;
  return false;
}

QString DynamicShapesModel::solvedShape(int input) const {
  const SolveResultPtr& result = session_->result();
  if (!result) return {};
  const std::string name = session_->document()->inputs()[input].display_name();
  for (const auto& shape : result->input_shapes)
    if (shape.name == name) return shape.is_tensor ? shape_text(shape.dims) : QString();
  return {};
}

QVariant DynamicShapesModel::data(const QModelIndex& index, int role) const {
  const Row* row = rowOf(index);
  if (!row) return {};
  if (row->input < 0) {  // a container: its path and what it is
    if (index.column() == Input && role == Qt::DisplayRole) return row->label;
    if (index.column() == Input && role == Qt::FontRole) return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (index.column() == Example && role == Qt::DisplayRole) return row->example;
    if (role == Qt::ForegroundRole) return QColor(Qt::gray);
    return {};
  }
  if (role == NodeNameRole) return nodeAt(row->input);
  const SpecDocument* document = session_->document();
  const int input_index = row->input;
  const symbolic::ExampleInput& input = document->inputs()[size_t(input_index)];
  const int dim = dimOf(index);
  if (index.column() == Input) {
    if (role == Qt::DisplayRole) return row->label;
    if (role == Qt::FontRole) return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    return {};
  }
  if (index.column() == Example) {
    if (role == Qt::DisplayRole) return input.is_tensor ? shape_text(input.sizes) : tr("not a tensor");
    if (role == Qt::ForegroundRole && !input.is_tensor) return QColor(Qt::gray);
    return {};
  }
  if (index.column() == solvedColumn()) {
    if (role == Qt::DisplayRole) return solvedShape(input_index);
    if (role == Qt::FontRole) return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (role == Qt::ToolTipRole) return tr("The input's shape in the latest solve");
    return {};
  }
  if (dim < 0) return {};
  const symbolic::DimSpec entry =
      dim_entry(document->spec(), document->inputs(), size_t(input_index), dim, document->inputTree());
  switch (role) {
    case Qt::DisplayRole: return dim_spec_text(entry, document->spec());
    case Qt::EditRole: {
      DimEdit edit{entry, {}};
      if (entry.kind == symbolic::DimSpec::Kind::Named || entry.kind == symbolic::DimSpec::Kind::Derived) {
        auto it = document->spec().dims.find(entry.dim);
        if (it != document->spec().dims.end()) edit.decl = it->second;
      }
      return QVariant::fromValue(edit);
    }
    case Qt::ToolTipRole:
      return tr("%1.shape[%2]: example size %3\nDouble-click to change (STATIC, AUTO, DYNAMIC, a named Dim, "
                "A*dim + B, or an int)")
          .arg(QString::fromStdString(input.display_name()))
          .arg(dim)
          .arg(input.sizes[dim]);
    case Qt::FontRole:
      if (entry.kind == symbolic::DimSpec::Kind::Named || entry.kind == symbolic::DimSpec::Kind::Derived) {
        QFont bold;
        bold.setBold(true);
        return bold;
      }
      return {};
    case Qt::ForegroundRole:
      return entry.is_static() ? QVariant(QColor(Qt::gray)) : QVariant();
    case Qt::BackgroundRole:
      return violated(input_index, dim) ? QVariant(QColor(255, 90, 70, 70)) : QVariant();  // reads on light and dark
  }
  return {};
}

bool DynamicShapesModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  const int dim = dimOf(index);
  if (role != Qt::EditRole || dim < 0 || !value.canConvert<DimEdit>()) return false;
  session_->document()->setDim(size_t(inputAt(index)), dim, value.value<DimEdit>());
  return true;
}

Qt::ItemFlags DynamicShapesModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
  if (dimOf(index) >= 0) f |= Qt::ItemIsEditable;
  return f;
}

QVariant DynamicShapesModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole || orientation != Qt::Horizontal) return {};
  if (section == Input) return tr("Input");
  if (section == Example) return tr("Example");
  if (section == solvedColumn()) return tr("Solved shape");
  return tr("dim %1").arg(section - FirstDim);
}

QString DynamicShapesModel::nodeAt(int row) const {  // row: the input's index
  const LoadedProgramPtr& program = session_->program();
  if (!program || row < 0) return {};
  const auto users = program->program->signature.user_inputs();
  if (row >= static_cast<int>(users.size())) return {};
  const auto& arg = users[row]->arg;
  return arg.type == ir::SpecArgument::Type::Constant ? QString() : QString::fromStdString(arg.name);
}

}  // namespace exportlens::ui
