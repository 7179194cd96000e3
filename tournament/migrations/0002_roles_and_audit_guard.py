from django.db import migrations

ROLES = ("Director", "Floor", "Cashier", "Dealer")

GUARD = """
CREATE OR REPLACE FUNCTION tournament_auditevent_immutable() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'audit events are never changed or deleted';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER tournament_auditevent_immutable
  BEFORE UPDATE OR DELETE ON tournament_auditevent
  FOR EACH ROW EXECUTE FUNCTION tournament_auditevent_immutable();
"""
UNGUARD = """
DROP TRIGGER IF EXISTS tournament_auditevent_immutable ON tournament_auditevent;
DROP FUNCTION IF EXISTS tournament_auditevent_immutable();
"""


def create_roles(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    for name in ROLES:
        Group.objects.get_or_create(name=name)


def guard_audit(apps, schema_editor):
    # PostgreSQL (production) refuses any UPDATE or DELETE of an audit row. TRUNCATE, used
    # only by test teardown, is not a row event.
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(GUARD)


def unguard_audit(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(UNGUARD)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(create_roles, migrations.RunPython.noop),
        migrations.RunPython(guard_audit, unguard_audit),
    ]
