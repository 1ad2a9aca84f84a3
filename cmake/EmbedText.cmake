# Writes OUT, a C file defining `dm_schema_sql`, the text of IN as a string literal.
file(READ ${IN} text HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${text}")
file(WRITE ${OUT} "/* generated from results/store/schema.sql by cmake/EmbedText.cmake */\n"
  "const char dm_schema_sql[] = {${bytes} 0x00};\n")
