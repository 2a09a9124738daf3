-- reserved for issue 40; replaced by the slice that needs it
select 1;
