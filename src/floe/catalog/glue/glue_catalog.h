#pragma once

// The AWS Glue catalog (`catalog-type`='glue'): namespaces are Glue databases (one level), tables
// are Glue tables laid out as Iceberg's GlueCatalog writes them (glue_table_input_internal.h:
// table_type=ICEBERG, metadata_location, previous_metadata_location, the storage descriptor's
// location and columns), so that Iceberg Java, Athena and floe share one Glue catalog.
//
// Properties:
//   glue.endpoint      the Glue endpoint (default https://glue.<region>.amazonaws.com)
//   glue.id            the catalog id (the AWS account), sent as CatalogId
//   glue.skip-archive  true (default): updates keep no archived table version
//   client.region      region of the endpoint and of the signatures (then AWS_REGION...)
//   warehouse          where new tables go: <warehouse>/<database>.db/<table>, or
//                      <database LocationUri>/<table> when the database has a location
//   s3.*, credentials  as the S3 FileIO takes them (docs/s3.md); the same credentials sign the
//                      Glue requests
//
// A commit writes the new metadata file, reads the Glue table again, refuses (retryable
// kCommitFailed) when its metadata_location is no longer the base's, and swaps it with one
// UpdateTable carrying the VersionId it read: Glue answers ConcurrentModificationException when
// another writer updated the table in between (a retryable kCommitFailed; the new file is
// deleted). A commit or create whose answer is lost is looked up again: landed when the table now
// points at the new file, kCommitStateUnknown otherwise (the file stays). Rename is CreateTable under the
// new name then DeleteTable of the old one (Glue has no rename); when the delete fails the new
// entry is deleted again, and if that fails too the error names both entries, which then point at
// the same files: drop one of them without purge.
//
// Errors name the Glue operation and Glue's error type; kInvalidArgument for multi-level
// namespaces and for names Glue does not take (Iceberg's rule: lowercase letters, digits, '_').

#include <memory>
#include <string>

#include "floe/catalog/catalog.h"

namespace floe::catalog {

Result<std::shared_ptr<Catalog>> CreateGlueCatalog(const std::string& name,
                                                   const StringMap& properties);

}  // namespace floe::catalog
