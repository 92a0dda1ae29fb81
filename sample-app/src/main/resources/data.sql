MERGE INTO account AS a
USING (VALUES ('alice', 10000), ('bob', 10000), ('dave', 10000), ('erin', 10000)) AS seed (id, balance)
ON a.id = seed.id
WHEN NOT MATCHED THEN INSERT (id, balance) VALUES (seed.id, seed.balance);
