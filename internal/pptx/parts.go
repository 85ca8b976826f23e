package pptx

import "strings"

// The fixed parts: one master with one title-only layout, a notes master
// and a plain theme. Placeholders on slides and notes pages carry no
// geometry of their own and inherit it from here.

const clrMap = `<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>`

// titleBox is where a slide's title sits: a band across the top.
const titleBox = `<a:xfrm><a:off x="457200" y="182880"/><a:ext cx="11277600" cy="822960"/></a:xfrm>`

const slideMaster = xmlHead + `<p:sldMaster ` + pmlNS + `><p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg><p:spTree>` + treeHead +
	`<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title Placeholder"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr>` +
	`<p:spPr>` + titleBox + `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>` +
	`<p:txBody><a:bodyPr vert="horz" lIns="91440" tIns="45720" rIns="91440" bIns="45720" rtlCol="0" anchor="ctr"><a:normAutofit/></a:bodyPr><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>Title</a:t></a:r></a:p></p:txBody></p:sp>` +
	`</p:spTree></p:cSld>` + clrMap +
	`<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst>` +
	`<p:txStyles>` +
	`<p:titleStyle><a:lvl1pPr algn="l" defTabSz="914400" rtl="0" eaLnBrk="1" latinLnBrk="0" hangingPunct="1"><a:lnSpc><a:spcPct val="90000"/></a:lnSpc><a:spcBef><a:spcPct val="0"/></a:spcBef><a:buNone/><a:defRPr sz="3200" b="1" kern="1200"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mj-lt"/><a:ea typeface="+mj-ea"/><a:cs typeface="+mj-cs"/></a:defRPr></a:lvl1pPr></p:titleStyle>` +
	`<p:bodyStyle><a:lvl1pPr marL="0" indent="0" algn="l" defTabSz="914400" rtl="0" eaLnBrk="1" latinLnBrk="0" hangingPunct="1"><a:spcBef><a:spcPts val="600"/></a:spcBef><a:buNone/><a:defRPr sz="2000" kern="1200"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/><a:ea typeface="+mn-ea"/><a:cs typeface="+mn-cs"/></a:defRPr></a:lvl1pPr></p:bodyStyle>` +
	`<p:otherStyle><a:defPPr><a:defRPr lang="en-US"/></a:defPPr><a:lvl1pPr marL="0" algn="l" defTabSz="914400" rtl="0" eaLnBrk="1" latinLnBrk="0" hangingPunct="1"><a:defRPr sz="1800" kern="1200"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/><a:ea typeface="+mn-ea"/><a:cs typeface="+mn-cs"/></a:defRPr></a:lvl1pPr></p:otherStyle>` +
	`</p:txStyles></p:sldMaster>`

const slideLayout = xmlHead + `<p:sldLayout ` + pmlNS + ` type="titleOnly" preserve="1"><p:cSld name="Title Only"><p:spTree>` + treeHead +
	`<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:spPr/>` +
	`<p:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>Title</a:t></a:r></a:p></p:txBody></p:sp>` +
	`</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`

const notesMaster = xmlHead + `<p:notesMaster ` + pmlNS + `><p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg><p:spTree>` + treeHead +
	`<p:sp><p:nvSpPr><p:cNvPr id="2" name="Slide Image Placeholder"/><p:cNvSpPr><a:spLocks noGrp="1" noRot="1" noChangeAspect="1"/></p:cNvSpPr><p:nvPr><p:ph type="sldImg" idx="2"/></p:nvPr></p:nvSpPr>` +
	`<p:spPr><a:xfrm><a:off x="381000" y="685800"/><a:ext cx="6096000" cy="3429000"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/><a:ln w="12700"><a:solidFill><a:prstClr val="black"/></a:solidFill></a:ln></p:spPr></p:sp>` +
	`<p:sp><p:nvSpPr><p:cNvPr id="3" name="Notes Placeholder"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr><p:nvPr><p:ph type="body" sz="quarter" idx="1"/></p:nvPr></p:nvSpPr>` +
	`<p:spPr><a:xfrm><a:off x="685800" y="4343400"/><a:ext cx="5486400" cy="4114800"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr>` +
	`<p:txBody><a:bodyPr vert="horz" lIns="91440" tIns="45720" rIns="91440" bIns="45720" rtlCol="0"><a:normAutofit/></a:bodyPr><a:lstStyle/><a:p><a:r><a:rPr lang="en-US"/><a:t>Notes</a:t></a:r></a:p></p:txBody></p:sp>` +
	`</p:spTree></p:cSld>` + clrMap +
	`<p:notesStyle><a:lvl1pPr marL="0" algn="l" defTabSz="914400" rtl="0" eaLnBrk="1" latinLnBrk="0" hangingPunct="1"><a:defRPr sz="1200" kern="1200"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill><a:latin typeface="+mn-lt"/><a:ea typeface="+mn-ea"/><a:cs typeface="+mn-cs"/></a:defRPr></a:lvl1pPr></p:notesStyle></p:notesMaster>`

// theme is a plain theme with font as both heading and body typeface. A
// theme must list three fill, line, effect and background styles.
func theme(font string) string {
	f := attr(font)
	fonts := `<a:latin typeface="` + f + `"/><a:ea typeface=""/><a:cs typeface=""/>`
	solid := `<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>`
	ln := func(w string) string {
		return `<a:ln w="` + w + `" cap="flat" cmpd="sng" algn="ctr">` + solid + `<a:prstDash val="solid"/></a:ln>`
	}
	effect := `<a:effectStyle><a:effectLst/></a:effectStyle>`
	return xmlHead + `<a:theme xmlns:a="` + nsA + `" name="lessongen"><a:themeElements>` +
		`<a:clrScheme name="lessongen">` +
		`<a:dk1><a:srgbClr val="1B1F24"/></a:dk1><a:lt1><a:srgbClr val="FFFFFF"/></a:lt1>` +
		`<a:dk2><a:srgbClr val="1F3A5F"/></a:dk2><a:lt2><a:srgbClr val="EEF2F6"/></a:lt2>` +
		`<a:accent1><a:srgbClr val="2B6CB0"/></a:accent1><a:accent2><a:srgbClr val="B7791F"/></a:accent2>` +
		`<a:accent3><a:srgbClr val="2F855A"/></a:accent3><a:accent4><a:srgbClr val="6B46C1"/></a:accent4>` +
		`<a:accent5><a:srgbClr val="C53030"/></a:accent5><a:accent6><a:srgbClr val="2C7A7B"/></a:accent6>` +
		`<a:hlink><a:srgbClr val="2B6CB0"/></a:hlink><a:folHlink><a:srgbClr val="6B46C1"/></a:folHlink></a:clrScheme>` +
		`<a:fontScheme name="lessongen"><a:majorFont>` + fonts + `</a:majorFont><a:minorFont>` + fonts + `</a:minorFont></a:fontScheme>` +
		`<a:fmtScheme name="lessongen"><a:fillStyleLst>` + strings.Repeat(solid, 3) + `</a:fillStyleLst>` +
		`<a:lnStyleLst>` + ln("9525") + ln("25400") + ln("38100") + `</a:lnStyleLst>` +
		`<a:effectStyleLst>` + strings.Repeat(effect, 3) + `</a:effectStyleLst>` +
		`<a:bgFillStyleLst>` + strings.Repeat(solid, 3) + `</a:bgFillStyleLst></a:fmtScheme>` +
		`</a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>`
}
