SHOW CURRENT CATALOG;
SHOW CURRENT DATABASE;
CREATE CATALOG hadoop_catalog WITH (
  'type'='iceberg',
  'catalog-type'='hadoop',
  'warehouse'='mem:/tmp/hadoop_warehouse',
  'property-version'='1'
);
CREATE CATALOG hadoop_catalog WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='mem:/tmp/w2');
CREATE CATALOG IF NOT EXISTS hadoop_catalog WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='mem:/tmp/w2');
CREATE CATALOG sql_catalog WITH (
  'type'='iceberg',
  'catalog-type'='sql',
  'warehouse'='mem:/tmp/sql_warehouse',
  'cache-enabled'='false',
  'my-additional-catalog-config'='my-value'
);
SHOW CATALOGS;
USE CATALOG hadoop_catalog;
SHOW CURRENT CATALOG;
SHOW CURRENT DATABASE;
SHOW DATABASES;
DROP CATALOG hadoop_catalog;
USE CATALOG floe;
DROP CATALOG hadoop_catalog;
DROP CATALOG IF EXISTS hadoop_catalog;
DROP CATALOG hadoop_catalog;
USE CATALOG nope;
DROP CATALOG default_catalog;
CREATE CATALOG hive_catalog WITH (
  'type'='iceberg',
  'catalog-type'='hive',
  'uri'='thrift://localhost:9083',
  'clients'='5',
  'property-version'='1',
  'warehouse'='mem:/tmp/hive'
);
CREATE CATALOG rest_catalog WITH ('type'='iceberg', 'catalog-type'='rest', 'uri'='http://127.0.0.1:1');
CREATE CATALOG c WITH ('type'='iceberg', 'warehouse'='mem:/tmp/c');
CREATE CATALOG c WITH ('catalog-type'='hadoop', 'warehouse'='mem:/tmp/c');
CREATE CATALOG c WITH ('type'='hive', 'catalog-type'='hadoop', 'warehouse'='mem:/tmp/c');
CREATE CATALOG c WITH ('type'='iceberg', 'catalog-type'='oracle', 'warehouse'='mem:/tmp/c');
CREATE CATALOG c WITH ('type'='iceberg', 'catalog-type'='hadoop', 'catalog-impl'='x.so', 'warehouse'='mem:/tmp/c');
CREATE CATALOG c WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='mem:/tmp/c', 'warehouse'='mem:/tmp/d');
CREATE CATALOG `a/b` WITH ('type'='iceberg', 'catalog-type'='hadoop', 'warehouse'='mem:/tmp/c');
SHOW CATALOGS;
USE CATALOG default_catalog;
SHOW CURRENT DATABASE;
SHOW DATABASES;
