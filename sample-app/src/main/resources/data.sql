MERGE INTO account (id, balance) KEY (id)
VALUES ('alice', 10000), ('bob', 10000), ('dave', 10000), ('erin', 10000);
