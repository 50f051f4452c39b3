"""The print style sheet (``print/print.css`` of each edition), after the book's own: A4 pages with
the running footer and the page number in the bottom margin (each document sets their text), cases
flowing on (a case never forces a page), boards drawn at one scale (a stone 3.3 mm wide, so a 19×19
board takes about a third of the page and small boards stand side by side), nothing wider than the
page, and nothing kept whole that may be split (a long table breaks between its rows), so no page is
left half empty by what follows it."""

PRINT_STYLE_FILE = "print.css"

PRINT_STYLE = """@page{size:A4;margin:14mm 13mm 16mm;
 @bottom-left{font:8pt "JPD Noto Sans SC",sans-serif;color:#555;vertical-align:top;padding-top:3mm}
 @bottom-right{font:9pt "JPD Noto Sans SC",sans-serif;vertical-align:top;padding-top:3mm}}
@media print{
body.print{font-size:9.5pt;line-height:1.35}
body.print main{max-width:none;padding:0;margin:0}
body.print a{color:inherit;text-decoration:none}
body.print h1{font-size:14pt;margin:.2em 0 .4em}
body.print h2{font-size:11.5pt;margin:.9em 0 .3em}
body.print h3{font-size:10.5pt;margin:.6em 0 .2em}
body.print h1,body.print h2,body.print h3{break-after:avoid}
body.print p,body.print li{orphans:2;widows:2}
body.print table{max-width:100%;font-size:9pt}
body.print table.matrix{break-inside:auto}body.print tr{break-inside:avoid}
body.print th,body.print td{overflow-wrap:break-word;padding:.1em .35em}
body.print code,body.print pre{font-size:8.5pt;overflow-wrap:anywhere}
body.print pre{white-space:pre-wrap}
body.print .scroll{overflow:visible}
body.print figure{break-inside:avoid;margin:.2em 0}
body.print figcaption{font-size:8pt;max-width:60mm}
body.print .boards{gap:3mm 5mm}
body.print section.step{break-inside:auto}
body.print section.step>h3{break-after:avoid}
body.print svg.board{zoom:.52}
body.print .overview{gap:0 6mm}
body.print .overview>div:first-child{flex:0 1 auto;max-width:70mm}
body.print .overview>div:last-child{flex:1 1 110mm}
body.print ul.verdict-lines{padding-left:1.2em;margin:.2em 0}
header.chapter{border-bottom:2px solid #333;margin-bottom:4mm}
header.chapter h1{font-size:17pt;margin:0 0 .2em}
header.chapter .in-chapter{font-size:8.5pt;color:#444}
header.chapter .chapter-number{margin:0;font-size:10pt;color:#555;letter-spacing:.05em}
article.case{break-before:auto;border-top:1px solid #999;margin-top:6mm;padding-top:2mm}
header.chapter+article.case{border-top:0;margin-top:0}
article.case>h1{font-size:13pt}
section.title-page{margin:20mm 0 10mm}
section.title-page h1{font-size:22pt}
section.title-page .edition{font-size:13pt}
section.title-page .cite{border:1px solid #999;padding:.5em .8em;background:#f7f7f7}
}
nav.contents ol{list-style:none;padding-left:0;margin:0}
nav.contents ol.cases{padding-left:1.5em;margin-bottom:.4em}
nav.contents li.chapter{margin-top:.5em;font-weight:bold}
nav.contents li.chapter li{font-weight:normal;font-size:9pt}
nav.contents a{display:flex;align-items:baseline;gap:.4em}
nav.contents .entry{flex:0 1 auto;min-width:0;overflow-wrap:anywhere}
nav.contents a::after{content:"";order:1;flex:1 0 2em;border-bottom:1px dotted #999}
nav.contents .page-ref{order:2;flex:none;min-width:2.2em;text-align:right}
nav.contents li{break-inside:avoid}
"""
