import { sql, type Kysely } from 'kysely';

// Frozen: a released migration never changes and never imports application code.
//
// The foreign keys a schedule diff's bulk writes hit per row (action_items → airlines and
// schedules; bookings, rostered_layovers and rostered_deadheads → airlines) become the same constraints checked once per statement. A per-row
// foreign-key check is a query and a row lock per inserted row: about half the Postgres time of COPYing a
// big airline's 160k action items and bookings. Here an AFTER INSERT statement trigger checks the distinct
// keys of the statement's new rows and locks their parents FOR KEY SHARE once (a concurrent delete of the
// parent waits for the inserting transaction, as with a foreign key), raising 23503 like a foreign key; a
// key changed by UPDATE is checked per row; a parent's delete cascades by statement triggers; a parent key
// still referenced cannot change. See docs/decisions.md.

/** child table, child column, parent table, parent column: the foreign keys replaced. */
const KEYS = [
  ['action_items', 'airline_id', 'airlines', 'airline_id'],
  ['action_items', 'schedule_id', 'schedules', 'schedule_id'],
  ['bookings', 'airline_id', 'airlines', 'airline_id'],
  // The coverage monitor's rows, COPYed by the same diff.
  ['rostered_layovers', 'airline_id', 'airlines', 'airline_id'],
  ['rostered_deadheads', 'airline_id', 'airlines', 'airline_id'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  // TG_ARGV: parent table, parent column, child column.
  await sql`create function crew_fk_check_statement() returns trigger language plpgsql as $$
    declare missing bigint;
    begin
      execute format('with keys as (select distinct %3$I as k from new_rows where %3$I is not null),
          found as (select p.%2$I from %1$I p join keys on p.%2$I = keys.k for key share of p)
        select (select count(*) from keys) - (select count(*) from found)', tg_argv[0], tg_argv[1], tg_argv[2]) into missing;
      if missing > 0 then
        raise exception 'insert or update on table "%" violates foreign key to "%" (% key(s) not present)', tg_table_name, tg_argv[0], missing using errcode = '23503';
      end if;
      return null;
    end $$`.execute(db);
  await sql`create function crew_fk_check_row() returns trigger language plpgsql as $$
    declare n bigint;
    begin
      if (to_jsonb(new) ->> tg_argv[2]) is not null then
        execute format('select 1 from %1$I p where p.%2$I = ($1::jsonb ->> %3$L)::uuid for key share of p', tg_argv[0], tg_argv[1], tg_argv[2]) using to_jsonb(new);
        -- EXECUTE leaves FOUND alone: the row count says whether the parent is there.
        get diagnostics n = row_count;
        if n = 0 then
          raise exception 'update on table "%" violates foreign key to "%"', tg_table_name, tg_argv[0] using errcode = '23503';
        end if;
      end if;
      return new;
    end $$`.execute(db);
  // TG_ARGV: child table, child column, parent column (ON DELETE CASCADE).
  await sql`create function crew_fk_cascade_delete() returns trigger language plpgsql as $$
    begin
      execute format('delete from %1$I where %2$I in (select %3$I from old_rows)', tg_argv[0], tg_argv[1], tg_argv[2]);
      return null;
    end $$`.execute(db);
  // TG_ARGV: child table, child column, parent column (a referenced key cannot change: NO ACTION).
  await sql`create function crew_fk_restrict_key_update() returns trigger language plpgsql as $$
    declare referenced boolean;
    begin
      execute format('select exists (select 1 from %1$I where %2$I = ($1::jsonb ->> %3$L)::uuid)', tg_argv[0], tg_argv[1], tg_argv[2]) using to_jsonb(old) into referenced;
      if referenced then
        raise exception 'update on table "%" violates foreign key from "%"', tg_table_name, tg_argv[0] using errcode = '23503';
      end if;
      return new;
    end $$`.execute(db);

  for (const [child, column, parent, key] of KEYS) {
    await sql.raw(`alter table ${child} drop constraint ${child}_${column}_fkey`).execute(db);
    await sql
      .raw(
        `create trigger ${child}_${column}_fk_insert after insert on ${child} referencing new table as new_rows
      for each statement execute function crew_fk_check_statement('${parent}', '${key}', '${column}')`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${child}_${column}_fk_update before update of ${column} on ${child}
      for each row when (new.${column} is distinct from old.${column}) execute function crew_fk_check_row('${parent}', '${key}', '${column}')`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${parent}_${child}_${column}_cascade after delete on ${parent} referencing old table as old_rows
      for each statement execute function crew_fk_cascade_delete('${child}', '${column}', '${key}')`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${parent}_${child}_${column}_restrict before update of ${key} on ${parent}
      for each row when (new.${key} is distinct from old.${key}) execute function crew_fk_restrict_key_update('${child}', '${column}', '${key}')`,
      )
      .execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [child, column, parent, key] of KEYS) {
    await sql.raw(`drop trigger if exists ${child}_${column}_fk_insert on ${child}`).execute(db);
    await sql.raw(`drop trigger if exists ${child}_${column}_fk_update on ${child}`).execute(db);
    await sql.raw(`drop trigger if exists ${parent}_${child}_${column}_cascade on ${parent}`).execute(db);
    await sql.raw(`drop trigger if exists ${parent}_${child}_${column}_restrict on ${parent}`).execute(db);
    await sql
      .raw(
        `alter table ${child} add constraint ${child}_${column}_fkey foreign key (${column}) references ${parent} (${key}) on delete cascade`,
      )
      .execute(db);
  }
  for (const f of [
    'crew_fk_check_statement',
    'crew_fk_check_row',
    'crew_fk_cascade_delete',
    'crew_fk_restrict_key_update',
  ])
    await sql.raw(`drop function if exists ${f}()`).execute(db);
}
