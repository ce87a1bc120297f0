#include <fmt/format.h>

#include <array>
#include <string>
#include <string_view>

#include "floe/sql/exec/relational.h"
#include "floe/sql/plan/sources_internal.h"
#include "floe/sql/plan/window_internal.h"
#include "floe/sql/syntax/printer.h"

namespace floe::sql::plan {
namespace {

struct WindowSignature {
  std::string_view function;
  exec::WindowKind kind;
  // The interval arguments in positional order; the last one (OFFSET) is optional.
  std::array<std::string_view, 3> arguments;
  int count;
};

constexpr WindowSignature kWindows[] = {
    {"TUMBLE", exec::WindowKind::kTumble, {"SIZE", "OFFSET"}, 2},
    {"HOP", exec::WindowKind::kHop, {"SLIDE", "SIZE", "OFFSET"}, 3},
    {"CUMULATE", exec::WindowKind::kCumulate, {"STEP", "SIZE", "OFFSET"}, 3},
};

std::unexpected<Error> ErrorAt(const TableRef& ref, std::string_view message) {
  return InvalidArgument("{}", AtPosition(ref.position, message));
}

}  // namespace

Result<Relation> PlanWindowFunction(PlannerContext& context, const TableRef& ref) {
  const WindowSignature* signature = nullptr;
  for (const WindowSignature& candidate : kWindows) {
    if (candidate.function == ref.window_function) signature = &candidate;
  }
  if (signature == nullptr) {
    return Unsupported(
        "{}", AtPosition(ref.position, fmt::format("window function {} is not supported (TUMBLE, "
                                                   "HOP, CUMULATE)",
                                                   ref.window_function)));
  }
  // The arguments by their place in the signature.
  std::array<const Expr*, 3> values{};
  int next = 0;
  for (const WindowArgument& argument : ref.window_arguments) {
    int at = next++;
    if (!argument.name.empty()) {
      at = -1;
      for (int i = 0; i < signature->count; ++i) {
        if (signature->arguments[i] == argument.name) at = i;
      }
      if (at < 0) {
        return ErrorAt(ref,
                       fmt::format("{} has no argument {}", signature->function, argument.name));
      }
    }
    if (at >= signature->count) {
      return ErrorAt(
          ref, fmt::format("{} takes at most {} intervals", signature->function, signature->count));
    }
    if (values[at] != nullptr) {
      return ErrorAt(
          ref, fmt::format("{}: {} is given twice", signature->function, signature->arguments[at]));
    }
    values[at] = argument.value.get();
  }
  std::array<int64_t, 3> micros{};
  for (int i = 0; i < signature->count; ++i) {
    bool optional = i == signature->count - 1;
    if (values[i] == nullptr) {
      if (optional) continue;
      return ErrorAt(ref, fmt::format("{} needs its {} argument", signature->function,
                                      signature->arguments[i]));
    }
    std::optional<int64_t> length = DayTimeIntervalMicros(*values[i]);
    if (!length) {
      return ErrorAt(
          ref, fmt::format("{}: {} must be a day-time INTERVAL literal, not {}",
                           signature->function, signature->arguments[i], PrintExpr(*values[i])));
    }
    micros[i] = *length;
  }
  exec::WindowSpec spec{.kind = signature->kind};
  if (signature->kind == exec::WindowKind::kTumble) {
    spec.size_us = micros[0];
    spec.offset_us = micros[1];
  } else {
    spec.slide_us = micros[0];
    spec.size_us = micros[1];
    spec.offset_us = micros[2];
  }

  FLOE_ASSIGN_OR_RETURN(Relation input,
                        PlanFrom(context, *ref.left, ColumnUse{.all = true}, nullptr));
  if (input.changelog) {
    return ErrorAt(ref, fmt::format("{} needs an insert-only input", signature->function));
  }
  FLOE_ASSIGN_OR_RETURN(int time_column, input.scope().Find({ref.time_column}, ref.position));
  if (!context.batch() && input.rowtime != time_column) {
    return ErrorAt(ref, fmt::format("{} over '{}': in streaming mode the DESCRIPTOR column must "
                                    "be a time attribute (WATERMARK FOR {} AS ...)",
                                    signature->function, ref.time_column, ref.time_column));
  }
  auto assigned = exec::AssignWindows(input.stream, time_column, spec);
  if (!assigned) {
    return ErrorAt(ref, assigned.error().message());
  }
  context.Note(
      fmt::format("WindowTableFunction({}(time_col=[{}], size=[{} ms], step=[{} ms], "
                  "offset=[{} ms]))",
                  signature->function, ref.time_column, spec.size_us / 1000, spec.slide_us / 1000,
                  spec.offset_us / 1000));
  std::string qualifier = ref.alias.value_or("");
  std::vector<ScopeColumn> columns = input.columns;
  for (ScopeColumn& column : columns) {
    column.qualifier = qualifier;
    column.field_id.reset();
  }
  const BatchSchema& schema = *assigned->schema();
  for (int i = static_cast<int>(columns.size()); i < schema.num_fields(); ++i) {
    const Field& field = schema.field(i);
    columns.push_back({.qualifier = qualifier,
                       .name = field.name,
                       .type = field.type,
                       .nullable = field.nullable});
  }
  int first = static_cast<int>(input.columns.size());
  return Relation{.stream = *assigned,
                  .columns = std::move(columns),
                  .bounded = input.bounded,
                  .rowtime = first + 2,
                  .window_end = first + 1};
}

}  // namespace floe::sql::plan
