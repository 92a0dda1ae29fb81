INSERT INTO account (id, balance)
VALUES ('alice', 10000), ('bob', 10000), ('dave', 10000), ('erin', 10000)
ON CONFLICT (id) DO NOTHING;
