#include "floe/table/update/file_matcher.h"

#include "floe/expr/evaluator.h"
#include "floe/expr/metrics_evaluator.h"
#include "floe/expr/projection.h"

namespace floe::table {
namespace {

expr::DataFileMetrics MetricsOf(const manifest::DataFile& file) {
  expr::DataFileMetrics metrics;
  metrics.record_count = file.record_count;
  for (const auto& [id, count] : file.value_counts) metrics.value_counts[id] = count;
  for (const auto& [id, count] : file.null_value_counts) metrics.null_value_counts[id] = count;
  for (const auto& [id, count] : file.nan_value_counts) metrics.nan_value_counts[id] = count;
  for (const auto& [id, bound] : file.lower_bounds) metrics.lower_bounds[id] = bound;
  for (const auto& [id, bound] : file.upper_bounds) metrics.upper_bounds[id] = bound;
  return metrics;
}

bool EvaluatePartition(const expr::Expression& bound, const PartitionSpec& spec,
                       const manifest::DataFile& file) {
  auto fields = spec.fields();
  return expr::Evaluate(bound, [&](int32_t field_id) -> const Literal* {
    for (size_t i = 0; i < fields.size() && i < file.partition.size(); ++i) {
      if (fields[i].field_id == field_id) return &file.partition[i];
    }
    return nullptr;
  });
}

}  // namespace

FileMatcher::FileMatcher(expr::ExprPtr filter, SchemaPtr schema, bool case_sensitive)
    : filter_(std::move(filter)), schema_(std::move(schema)), case_sensitive_(case_sensitive) {}

Status FileMatcher::Bind() {
  if (bound_) return Ok();
  FLOE_ASSIGN_OR_RETURN(bound_, expr::Bind(filter_, *schema_, case_sensitive_));
  return Ok();
}

Result<FileMatcher::PerSpec*> FileMatcher::ForSpec(const PartitionSpec& spec) {
  FLOE_RETURN_IF_ERROR(Bind());
  auto it = specs_.find(spec.spec_id());
  if (it != specs_.end()) return &it->second;
  PerSpec per;
  FLOE_ASSIGN_OR_RETURN(per.inclusive, expr::ProjectInclusive(bound_, *schema_, spec));
  FLOE_ASSIGN_OR_RETURN(per.strict, expr::ProjectStrict(bound_, *schema_, spec));
  FLOE_ASSIGN_OR_RETURN(auto evaluator,
                        expr::ManifestEvaluator::Make(bound_, *schema_, spec, case_sensitive_));
  per.manifests = std::make_unique<expr::ManifestEvaluator>(std::move(evaluator));
  return &specs_.emplace(spec.spec_id(), std::move(per)).first->second;
}

Result<bool> FileMatcher::MightMatch(const manifest::DataFile& file, const PartitionSpec& spec) {
  FLOE_ASSIGN_OR_RETURN(PerSpec * per, ForSpec(spec));
  if (!EvaluatePartition(*per->inclusive, spec, file)) return false;
  return expr::InclusiveMetricsEvaluator(bound_).MightMatch(MetricsOf(file));
}

Result<bool> FileMatcher::AllMatch(const manifest::DataFile& file, const PartitionSpec& spec) {
  FLOE_ASSIGN_OR_RETURN(PerSpec * per, ForSpec(spec));
  if (EvaluatePartition(*per->strict, spec, file)) return true;
  return expr::StrictMetricsEvaluator(bound_).AllMatch(MetricsOf(file));
}

Result<bool> FileMatcher::ManifestMightMatch(const manifest::ManifestFile& manifest,
                                             const PartitionSpec& spec) {
  if (!manifest.partitions) return true;
  FLOE_ASSIGN_OR_RETURN(PerSpec * per, ForSpec(spec));
  std::vector<expr::PartitionFieldSummary> summaries;
  for (const manifest::FieldSummary& field : *manifest.partitions) {
    summaries.push_back(
        {field.contains_null, field.contains_nan, field.lower_bound, field.upper_bound});
  }
  return per->manifests->MightMatch(summaries);
}

}  // namespace floe::table
