<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="town" tilewidth="32" tileheight="32" tilecount="112" columns="16">
 <image source="town.png" width="512" height="224"/>
 <tile id="0">
  <properties>
   <property name="terrain" value="grass0"/>
  </properties>
 </tile>
 <tile id="1">
  <properties>
   <property name="terrain" value="grass1"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="terrain" value="grass2"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="terrain" value="grass3"/>
  </properties>
 </tile>
 <tile id="4">
  <properties>
   <property name="terrain" value="grass_fl0"/>
  </properties>
 </tile>
 <tile id="5">
  <properties>
   <property name="terrain" value="grass_fl1"/>
  </properties>
 </tile>
 <tile id="6">
  <properties>
   <property name="terrain" value="dirt0"/>
  </properties>
 </tile>
 <tile id="7">
  <properties>
   <property name="terrain" value="dirt1"/>
  </properties>
 </tile>
 <tile id="8">
  <properties>
   <property name="terrain" value="dirt2"/>
  </properties>
 </tile>
 <tile id="9">
  <properties>
   <property name="terrain" value="dirt3"/>
  </properties>
 </tile>
 <tile id="10">
  <properties>
   <property name="terrain" value="dirt4"/>
  </properties>
 </tile>
 <tile id="11">
  <properties>
   <property name="terrain" value="dirt5"/>
  </properties>
 </tile>
 <tile id="12">
  <properties>
   <property name="terrain" value="dirt6"/>
  </properties>
 </tile>
 <tile id="13">
  <properties>
   <property name="terrain" value="dirt7"/>
  </properties>
 </tile>
 <tile id="14">
  <properties>
   <property name="terrain" value="dirt8"/>
  </properties>
 </tile>
 <tile id="15">
  <properties>
   <property name="terrain" value="dirt9"/>
  </properties>
 </tile>
 <tile id="16">
  <properties>
   <property name="terrain" value="dirt10"/>
  </properties>
 </tile>
 <tile id="17">
  <properties>
   <property name="terrain" value="dirt11"/>
  </properties>
 </tile>
 <tile id="18">
  <properties>
   <property name="terrain" value="dirt12"/>
  </properties>
 </tile>
 <tile id="19">
  <properties>
   <property name="terrain" value="dirt13"/>
  </properties>
 </tile>
 <tile id="20">
  <properties>
   <property name="terrain" value="dirt14"/>
  </properties>
 </tile>
 <tile id="21">
  <properties>
   <property name="terrain" value="dirt15"/>
  </properties>
 </tile>
 <tile id="22">
  <properties>
   <property name="terrain" value="water0"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="23">
  <properties>
   <property name="terrain" value="water1"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="24">
  <properties>
   <property name="terrain" value="water2"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="25">
  <properties>
   <property name="terrain" value="water3"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="26">
  <properties>
   <property name="terrain" value="water4"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="27">
  <properties>
   <property name="terrain" value="water5"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="28">
  <properties>
   <property name="terrain" value="water6"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="29">
  <properties>
   <property name="terrain" value="water7"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="30">
  <properties>
   <property name="terrain" value="water8"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="31">
  <properties>
   <property name="terrain" value="water9"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="32">
  <properties>
   <property name="terrain" value="water10"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="33">
  <properties>
   <property name="terrain" value="water11"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="34">
  <properties>
   <property name="terrain" value="water12"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="35">
  <properties>
   <property name="terrain" value="water13"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="36">
  <properties>
   <property name="terrain" value="water14"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="37">
  <properties>
   <property name="terrain" value="water15"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="38">
  <properties>
   <property name="terrain" value="cobble0"/>
  </properties>
 </tile>
 <tile id="39">
  <properties>
   <property name="terrain" value="cobble1"/>
  </properties>
 </tile>
 <tile id="40">
  <properties>
   <property name="terrain" value="wood"/>
  </properties>
 </tile>
 <tile id="41">
  <properties>
   <property name="terrain" value="wood_dark"/>
  </properties>
 </tile>
 <tile id="42">
  <properties>
   <property name="terrain" value="wood_light"/>
  </properties>
 </tile>
 <tile id="43">
  <properties>
   <property name="terrain" value="kitchen"/>
  </properties>
 </tile>
 <tile id="44">
  <properties>
   <property name="terrain" value="bath"/>
  </properties>
 </tile>
 <tile id="45">
  <properties>
   <property name="terrain" value="carpet_red"/>
  </properties>
 </tile>
 <tile id="46">
  <properties>
   <property name="terrain" value="carpet_green"/>
  </properties>
 </tile>
 <tile id="47">
  <properties>
   <property name="terrain" value="carpet_blue"/>
  </properties>
 </tile>
 <tile id="48">
  <properties>
   <property name="terrain" value="carpet_office"/>
  </properties>
 </tile>
 <tile id="49">
  <properties>
   <property name="terrain" value="slabs"/>
  </properties>
 </tile>
 <tile id="50">
  <properties>
   <property name="terrain" value="wall_top_brick"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="51">
  <properties>
   <property name="terrain" value="wall_face_brick"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="52">
  <properties>
   <property name="terrain" value="wall_window_brick"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="53">
  <properties>
   <property name="terrain" value="wall_inner_brick"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="54">
  <properties>
   <property name="terrain" value="door_brick"/>
   <property name="door" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="55">
  <properties>
   <property name="terrain" value="wall_top_plaster"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="56">
  <properties>
   <property name="terrain" value="wall_face_plaster"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="57">
  <properties>
   <property name="terrain" value="wall_window_plaster"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="58">
  <properties>
   <property name="terrain" value="wall_inner_plaster"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="59">
  <properties>
   <property name="terrain" value="door_plaster"/>
   <property name="door" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="60">
  <properties>
   <property name="terrain" value="wall_top_wood"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="61">
  <properties>
   <property name="terrain" value="wall_face_wood"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="62">
  <properties>
   <property name="terrain" value="wall_window_wood"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="63">
  <properties>
   <property name="terrain" value="wall_inner_wood"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="64">
  <properties>
   <property name="terrain" value="door_wood"/>
   <property name="door" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="65">
  <properties>
   <property name="terrain" value="wall_top_stone"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="66">
  <properties>
   <property name="terrain" value="wall_face_stone"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="67">
  <properties>
   <property name="terrain" value="wall_window_stone"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="68">
  <properties>
   <property name="terrain" value="wall_inner_stone"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="69">
  <properties>
   <property name="terrain" value="door_stone"/>
   <property name="door" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="70">
  <properties>
   <property name="terrain" value="wall_top_blue"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="71">
  <properties>
   <property name="terrain" value="wall_face_blue"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="72">
  <properties>
   <property name="terrain" value="wall_window_blue"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="73">
  <properties>
   <property name="terrain" value="wall_inner_blue"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="74">
  <properties>
   <property name="terrain" value="door_blue"/>
   <property name="door" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="75">
  <properties>
   <property name="terrain" value="wall_top_green"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="76">
  <properties>
   <property name="terrain" value="wall_face_green"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="77">
  <properties>
   <property name="terrain" value="wall_window_green"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="78">
  <properties>
   <property name="terrain" value="wall_inner_green"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="79">
  <properties>
   <property name="terrain" value="door_green"/>
   <property name="door" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="80">
  <properties>
   <property name="terrain" value="tree_tl"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="81">
  <properties>
   <property name="terrain" value="tree_tr"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="82">
  <properties>
   <property name="terrain" value="tree_bl"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="83">
  <properties>
   <property name="terrain" value="tree_br"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="84">
  <properties>
   <property name="terrain" value="tree_b_tl"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="85">
  <properties>
   <property name="terrain" value="tree_b_tr"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="86">
  <properties>
   <property name="terrain" value="tree_b_bl"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="87">
  <properties>
   <property name="terrain" value="tree_b_br"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="88">
  <properties>
   <property name="terrain" value="tree_c_tl"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="89">
  <properties>
   <property name="terrain" value="tree_c_tr"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="90">
  <properties>
   <property name="terrain" value="tree_c_bl"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="91">
  <properties>
   <property name="terrain" value="tree_c_br"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="92">
  <properties>
   <property name="terrain" value="bush"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="93">
  <properties>
   <property name="terrain" value="bush_berries"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="94">
  <properties>
   <property name="terrain" value="flowers_red"/>
  </properties>
 </tile>
 <tile id="95">
  <properties>
   <property name="terrain" value="flowers_yellow"/>
  </properties>
 </tile>
 <tile id="96">
  <properties>
   <property name="terrain" value="flowers_white"/>
  </properties>
 </tile>
 <tile id="97">
  <properties>
   <property name="terrain" value="flowers_purple"/>
  </properties>
 </tile>
 <tile id="98">
  <properties>
   <property name="terrain" value="rock"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="99">
  <properties>
   <property name="terrain" value="fence_h"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="100">
  <properties>
   <property name="terrain" value="fence_v"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="101">
  <properties>
   <property name="terrain" value="hedge"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="102">
  <properties>
   <property name="terrain" value="hedge_mid"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="103">
  <properties>
   <property name="terrain" value="lamp"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="104">
  <properties>
   <property name="terrain" value="mailbox"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="105">
  <properties>
   <property name="terrain" value="signpost"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="106">
  <properties>
   <property name="terrain" value="flower_bed"/>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="107">
  <properties>
   <property name="terrain" value="rug_red"/>
  </properties>
 </tile>
 <tile id="108">
  <properties>
   <property name="terrain" value="rug_blue"/>
  </properties>
 </tile>
 <tile id="109">
  <properties>
   <property name="terrain" value="rug_green"/>
  </properties>
 </tile>
 <tile id="110">
  <properties>
   <property name="terrain" value="lily"/>
  </properties>
 </tile>
 <tile id="111">
  <properties>
   <property name="terrain" value="reeds"/>
  </properties>
 </tile>
</tileset>
