"""Examples of programs that use Tabula (see README.md, "Write a bot in ten minutes")."""
