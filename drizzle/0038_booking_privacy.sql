-- Issue 39: reserved; a later change of this issue fills it in.
select 1;
