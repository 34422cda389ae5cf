<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="objects" tilewidth="64" tileheight="64" tilecount="33" columns="0">
 <grid orientation="orthogonal" width="1" height="1"/>
 <tile id="0" type="bed">
  <image width="32" height="64" source="../sprites/objects/bed.png"/>
 </tile>
 <tile id="1" type="stove">
  <image width="32" height="32" source="../sprites/objects/stove.png"/>
 </tile>
 <tile id="2" type="fridge">
  <image width="32" height="32" source="../sprites/objects/fridge.png"/>
 </tile>
 <tile id="3" type="kitchen_sink">
  <image width="32" height="32" source="../sprites/objects/kitchen_sink.png"/>
 </tile>
 <tile id="4" type="shower">
  <image width="32" height="32" source="../sprites/objects/shower.png"/>
 </tile>
 <tile id="5" type="toilet">
  <image width="32" height="32" source="../sprites/objects/toilet.png"/>
 </tile>
 <tile id="6" type="sink">
  <image width="32" height="32" source="../sprites/objects/sink.png"/>
 </tile>
 <tile id="7" type="sofa">
  <image width="64" height="32" source="../sprites/objects/sofa.png"/>
 </tile>
 <tile id="8" type="armchair">
  <image width="32" height="32" source="../sprites/objects/armchair.png"/>
 </tile>
 <tile id="9" type="chair">
  <image width="32" height="32" source="../sprites/objects/chair.png"/>
 </tile>
 <tile id="10" type="dining_table">
  <image width="64" height="32" source="../sprites/objects/dining_table.png"/>
 </tile>
 <tile id="11" type="tv">
  <image width="32" height="32" source="../sprites/objects/tv.png"/>
 </tile>
 <tile id="12" type="desk">
  <image width="32" height="32" source="../sprites/objects/desk.png"/>
 </tile>
 <tile id="13" type="computer">
  <image width="32" height="32" source="../sprites/objects/computer.png"/>
 </tile>
 <tile id="14" type="piano">
  <image width="64" height="32" source="../sprites/objects/piano.png"/>
 </tile>
 <tile id="15" type="guitar">
  <image width="32" height="32" source="../sprites/objects/guitar.png"/>
 </tile>
 <tile id="16" type="bookshelf">
  <image width="32" height="32" source="../sprites/objects/bookshelf.png"/>
 </tile>
 <tile id="17" type="reading_desk">
  <image width="64" height="32" source="../sprites/objects/reading_desk.png"/>
 </tile>
 <tile id="18" type="cafe_counter">
  <image width="64" height="32" source="../sprites/objects/cafe_counter.png"/>
 </tile>
 <tile id="19" type="coffee_machine">
  <image width="32" height="32" source="../sprites/objects/coffee_machine.png"/>
 </tile>
 <tile id="20" type="register">
  <image width="32" height="32" source="../sprites/objects/register.png"/>
 </tile>
 <tile id="21" type="shop_shelf">
  <image width="32" height="32" source="../sprites/objects/shop_shelf.png"/>
 </tile>
 <tile id="22" type="shop_counter">
  <image width="64" height="32" source="../sprites/objects/shop_counter.png"/>
 </tile>
 <tile id="23" type="bench">
  <image width="64" height="32" source="../sprites/objects/bench.png"/>
 </tile>
 <tile id="24" type="fountain">
  <image width="64" height="64" source="../sprites/objects/fountain.png"/>
 </tile>
 <tile id="25" type="swing">
  <image width="64" height="32" source="../sprites/objects/swing.png"/>
 </tile>
 <tile id="26" type="easel">
  <image width="32" height="32" source="../sprites/objects/easel.png"/>
 </tile>
 <tile id="27" type="blackboard">
  <image width="64" height="32" source="../sprites/objects/blackboard.png"/>
 </tile>
 <tile id="28" type="school_desk">
  <image width="32" height="32" source="../sprites/objects/school_desk.png"/>
 </tile>
 <tile id="29" type="wardrobe">
  <image width="32" height="32" source="../sprites/objects/wardrobe.png"/>
 </tile>
 <tile id="30" type="plant">
  <image width="32" height="32" source="../sprites/objects/plant.png"/>
 </tile>
 <tile id="31" type="water_cooler">
  <image width="32" height="32" source="../sprites/objects/water_cooler.png"/>
 </tile>
 <tile id="32" type="picnic_table">
  <image width="64" height="32" source="../sprites/objects/picnic_table.png"/>
 </tile>
</tileset>
